import { loginInputSchema } from '#shared/schemas/auth';
import { clearSessionCookie, setSessionCookie } from '#server/http/session-cookie';
import { DomainError, MESSAGES } from '#server/errors';
import { authedProcedure, publicProcedure, router } from '#server/trpc/init';
import { currentUserAnswer, login, logout } from './service';
import { twoFactorStep } from './two-factor-step';

export const authRouter = router({
  login: publicProcedure
    .meta({ solo: true })
    .input(loginInputSchema)
    .mutation(async ({ ctx, input }) => {
      const result = await login(ctx, input, ctx.req.ip);
      setSessionCookie(ctx.res, ctx.config, result.token, result.session);
      return currentUserAnswer(result.auth, ctx);
    }),
  logout: authedProcedure.meta({ twoFactorStep: true }).mutation(async ({ ctx }) => {
    await logout(ctx.db, ctx.auth.session.id);
    clearSessionCookie(ctx.res, ctx.config);
    return { success: true };
  }),
  whoAmI: authedProcedure.meta({ twoFactorStep: true }).query(({ ctx }) => currentUserAnswer(ctx.auth, ctx)),
  // The client's first question: the session's user, or null without a session.
  // Answered 200 either way, so that a visit without a session logs no failed request in the browser;
  // an anonymous caller learns only that it has no session (docs/decisions/0015-security-model.md).
  // The key of this session's encrypted offline store on the device (docs/decisions/0048-offline-store.md),
  // and when the store must be wiped at the latest. Only a logged-in session with its second factor passed gets
  // it; /trpc answers are never cached (Cache-Control: no-store). Anyone else gets null, as auth.session
  // answers: the client asks once it has seen a session, and a log-out in between (this tab's or another's)
  // must not log a failed request in the browser; null tells the client to wipe its store.
  offlineKey: publicProcedure.query(({ ctx }) => {
    ctx.res.header('cache-control', 'no-store');
    if (!ctx.auth || twoFactorStep(ctx.auth, ctx.config) !== null) return null;
    if (!ctx.cipher) throw new DomainError('unavailable', MESSAGES.unavailable);
    return {
      key: ctx.cipher.offlineStoreKey(ctx.auth.session.id),
      expiresAt: ctx.auth.session.expiresAt.toISOString(),
    };
  }),
  session: publicProcedure.query(({ ctx }) => (ctx.auth ? currentUserAnswer(ctx.auth, ctx) : null)),
});
