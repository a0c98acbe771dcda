import { businessTimeZone } from '../../../shared/calendar';
import type { Config } from '../../config';
import type { Auth } from '../../context';
import { loginInputSchema } from '../../../shared/schemas/auth';
import { clearSessionCookie, setSessionCookie } from '../../http/session-cookie';
import { authedProcedure, publicProcedure, router } from '../../trpc/init';
import { utilisateurDto } from '../utilisateurs/dto';
import { login, logout } from './service';
import { twoFactorStep } from './two-factor-step';

/** who-am-i's answer: the user, the second-factor step still owed, and the business calendar's zone (0018). */
function currentUser(auth: Auth, config: Config) {
  return {
    ...utilisateurDto(auth.user, auth.user.code),
    twoFactor: twoFactorStep(auth, config),
    twoFactorEnrolled: auth.user.twoFactorEnrolled,
    timeZone: businessTimeZone(),
  };
}

export const authRouter = router({
  login: publicProcedure
    .meta({ solo: true })
    .input(loginInputSchema)
    .mutation(async ({ ctx, input }) => {
      const result = await login(ctx, input, ctx.req.ip);
      setSessionCookie(ctx.res, ctx.config, result.token, result.session);
      return {
        ...result.user,
        twoFactor: twoFactorStep(result.auth, ctx.config),
        twoFactorEnrolled: result.auth.user.twoFactorEnrolled,
        timeZone: businessTimeZone(),
      };
    }),
  logout: authedProcedure.meta({ twoFactorStep: true }).mutation(async ({ ctx }) => {
    await logout(ctx.db, ctx.auth.session.id);
    clearSessionCookie(ctx.res, ctx.config);
    return { success: true };
  }),
  whoAmI: authedProcedure.meta({ twoFactorStep: true }).query(({ ctx }) => currentUser(ctx.auth, ctx.config)),
  // The client's first question (issue #12, defect 11): the session's user, or null without a session.
  // Answered 200 either way, so that a visit without a session logs no failed request in the browser;
  // an anonymous caller learns only that it has no session (docs/decisions/0015-security-model.md).
  session: publicProcedure.query(({ ctx }) => (ctx.auth ? currentUser(ctx.auth, ctx.config) : null)),
});
