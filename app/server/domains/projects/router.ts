import { z } from 'zod';
import { projectCreateSchema } from '#shared/schemas/signalements';
import { authedProcedure, router } from '#server/trpc/init';
import { createProject, listProjects } from './service';
import { trpcIdempotent } from '../idempotency/doors';
import { storedAnswer } from '../idempotency/service';

export const projectsRouter = router({
  list: authedProcedure
    .input(
      z.object({
        partenaire: z.string().trim().max(64).optional(),
        search: z.string().trim().max(200).optional(),
      }),
    )
    .query(({ ctx, input }) => listProjects(ctx.db, input)),
  create: authedProcedure
    .input(projectCreateSchema)
    .mutation(({ ctx, input }) =>
      trpcIdempotent(
        ctx,
        'projects.create',
        input,
        () => createProject(ctx.db, ctx.auth.user, input),
        storedAnswer,
      ),
    ),
});
