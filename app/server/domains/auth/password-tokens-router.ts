import { z } from 'zod';
import { definePasswordInputSchema, passwordTokenSchema } from '#shared/schemas/utilisateurs';
import { publicProcedure, router } from '#server/trpc/init';
import { definePassword, inspectPasswordToken } from './password-tokens';

/** The password set-up page, reached from an e-mail without a session. */
export const passwordTokensRouter = router({
  inspect: publicProcedure
    .input(z.object({ token: passwordTokenSchema }))
    .query(({ ctx, input }) => inspectPasswordToken(ctx.db, input.token)),
  define: publicProcedure.input(definePasswordInputSchema).mutation(async ({ ctx, input }) => {
    await definePassword(ctx.db, input.token, input.password);
    return { success: true };
  }),
});
