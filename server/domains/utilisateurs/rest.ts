import type { FastifyInstance } from 'fastify';
import { codeParamsSchema } from '#shared/schemas/common';
import {
  createUtilisateurInputSchema,
  listUtilisateursInputSchema,
  updateUtilisateurInputSchema,
} from '#shared/schemas/utilisateurs';
import type { Config } from '#server/config';
import type { Database } from '#server/db/client';
import { collection, parseQuery } from '#server/http/jsonld';
import { resetTwoFactor } from '../auth/two-factor-reset';
import { roleDto } from './dto';
import { inviteUser, rereadInvitedUser, sendPasswordReset, updateUser } from './manage';
import { listRoles, listUsers } from './service';
import { restIdempotent } from '../idempotency/doors';

export function utilisateursRoutes(app: FastifyInstance, db: Database, config: Config) {
  app.get('/api/utilisateurs', async (request) => {
    const input = listUtilisateursInputSchema.parse(parseQuery(request.query as Record<string, unknown>));
    const { items, total } = await listUsers(db, request.auth!.user, input);
    return collection('Utilisateur', request.url, items, total, input);
  });

  app.get('/api/utilisateur_roles', async (request) => {
    const roles = (await listRoles(db)).map(roleDto);
    return collection('UtilisateurRole', request.url, roles, roles.length);
  });

  app.post('/api/utilisateur/create-user', async (request, reply) => {
    const input = createUtilisateurInputSchema.parse(request.body ?? {});
    const user = await restIdempotent(
      app.ctx,
      request,
      reply,
      input,
      () => inviteUser(db, request.auth!.user, input, config.PUBLIC_URL),
      (stored) => rereadInvitedUser(request.auth!.user, stored),
    );
    return reply.code(201).send(user);
  });

  // PATCH bodies (application/merge-patch+json, §7) are parsed by the app's parser (http/merge-patch.ts).
  app.patch('/api/utilisateurs/:code', async (request) => {
    const { code } = codeParamsSchema.parse(request.params);
    const patch = updateUtilisateurInputSchema.parse(request.body ?? {});
    return updateUser(db, request.auth!.user, code, patch);
  });

  // An effect behind a GET, as spec §7 names it: refused unless it comes from the application (CSRF).
  app.get('/api/utilisateur/reset-password/:code', { config: { effectfulGet: true } }, async (request) => {
    const { code } = codeParamsSchema.parse(request.params);
    return sendPasswordReset(db, request.auth!.user, code, config.PUBLIC_URL);
  });

  app.post('/api/utilisateur/reset-two-factor/:code', async (request, reply) => {
    const { code } = codeParamsSchema.parse(request.params);
    await resetTwoFactor(app.ctx, request.auth!.user, code, request.log);
    return reply.code(204).send();
  });
}
