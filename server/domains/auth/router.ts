import { loginInputSchema } from '../../../shared/schemas/auth';
import { clearSessionCookie, setSessionCookie } from '../../http/session-cookie';
import { authedProcedure, publicProcedure, router } from '../../trpc/init';
import { utilisateurDto } from '../utilisateurs/dto';
import { login, logout } from './service';

export const authRouter = router({
  login: publicProcedure.meta({ solo: true }).input(loginInputSchema).mutation(async ({ ctx, input }) => {
    const result = await login(ctx.db, input, ctx.req.ip);
    setSessionCookie(ctx.res, ctx.config, result.token, result.session);
    return result.user;
  }),
  logout: authedProcedure.mutation(async ({ ctx }) => {
    await logout(ctx.db, ctx.auth.session.id);
    clearSessionCookie(ctx.res, ctx.config);
    return { success: true };
  }),
  whoAmI: authedProcedure.query(({ ctx }) => utilisateurDto(ctx.auth.user, ctx.auth.user.code)),
});
