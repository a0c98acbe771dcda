import { businessTimeZone } from '../../../shared/calendar';
import { loginInputSchema } from '../../../shared/schemas/auth';
import { clearSessionCookie, setSessionCookie } from '../../http/session-cookie';
import { authedProcedure, publicProcedure, router } from '../../trpc/init';
import { utilisateurDto } from '../utilisateurs/dto';
import { login, logout } from './service';
import { twoFactorStep } from './two-factor-step';

export const authRouter = router({
  login: publicProcedure.meta({ solo: true }).input(loginInputSchema).mutation(async ({ ctx, input }) => {
    const result = await login(ctx.db, input, ctx.req.ip);
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
  whoAmI: authedProcedure.meta({ twoFactorStep: true }).query(({ ctx }) => ({
    ...utilisateurDto(ctx.auth.user, ctx.auth.user.code),
    twoFactor: twoFactorStep(ctx.auth, ctx.config),
    twoFactorEnrolled: ctx.auth.user.twoFactorEnrolled,
    // The business calendar the screens show days in (docs/decisions/0018-business-calendar.md).
    timeZone: businessTimeZone(),
  })),
});
