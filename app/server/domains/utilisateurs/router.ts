import { z } from 'zod';
import {
  createUtilisateurInputSchema,
  listUtilisateursInputSchema,
  updateUtilisateurTrpcInputSchema,
  utilisateurCodeSchema,
  utilisateurOptionsInputSchema,
} from '#shared/schemas/utilisateurs';
import { adminProcedure, authedProcedure, router } from '#server/trpc/init';
import { resetTwoFactor } from '../auth/two-factor-reset';
import { roleDto } from './dto';
import { inviteUser, rereadInvitedUser, sendPasswordReset, updateUser } from './manage';
import { listRoles, listUserOptions, listUsers } from './service';
import { trpcIdempotent } from '../idempotency/doors';

export const utilisateursRouter = router({
  list: adminProcedure
    .input(listUtilisateursInputSchema)
    .query(({ ctx, input }) => listUsers(ctx.db, ctx.auth.user, input)),
  roles: authedProcedure.query(async ({ ctx }) => (await listRoles(ctx.db)).map(roleDto)),
  options: authedProcedure
    .input(utilisateurOptionsInputSchema)
    .query(({ ctx, input }) => listUserOptions(ctx.db, ctx.auth.user, input?.search, input?.enabledOnly)),
  create: adminProcedure.input(createUtilisateurInputSchema).mutation(({ ctx, input }) =>
    trpcIdempotent(
      ctx,
      'utilisateurs.create',
      input,
      () => inviteUser(ctx, ctx.auth.user, input, ctx.config.PUBLIC_URL),
      (stored) => rereadInvitedUser(ctx.auth.user, stored),
    ),
  ),
  update: adminProcedure
    .input(updateUtilisateurTrpcInputSchema)
    .mutation(({ ctx, input: { code, ...patch } }) => updateUser(ctx, ctx.auth.user, code, patch)),
  resetPassword: adminProcedure
    .input(z.object({ code: utilisateurCodeSchema }))
    .mutation(({ ctx, input }) =>
      sendPasswordReset(ctx.db, ctx.auth.user, input.code, ctx.config.PUBLIC_URL),
    ),
  resetTwoFactor: adminProcedure
    .input(z.object({ code: utilisateurCodeSchema }))
    .mutation(async ({ ctx, input }) => {
      await resetTwoFactor(ctx, ctx.auth.user, input.code, ctx.req.log);
      return { success: true };
    }),
});
