import { listUtilisateursInputSchema } from '../../../shared/schemas/utilisateurs';
import { adminProcedure, authedProcedure, router } from '../../trpc/init';
import { roleDto } from './dto';
import { listRoles, listUsers } from './service';

export const utilisateursRouter = router({
  list: adminProcedure
    .input(listUtilisateursInputSchema)
    .query(({ ctx, input }) => listUsers(ctx.db, ctx.auth.user, input)),
  roles: authedProcedure.query(async ({ ctx }) => (await listRoles(ctx.db)).map(roleDto)),
});
