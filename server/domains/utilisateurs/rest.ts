import type { FastifyInstance } from 'fastify';
import {
  createUtilisateurInputSchema,
  listUtilisateursInputSchema,
  updateUtilisateurInputSchema,
  utilisateurCodeSchema,
} from '../../../shared/schemas/utilisateurs';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { collection, parseQuery } from '../../http/jsonld';
import { resetTwoFactor } from '../auth/two-factor-reset';
import { roleDto } from './dto';
import { inviteUser, rereadInvitedUser, sendPasswordReset, updateUser } from './manage';
import { listRoles, listUsers } from './service';
import { restIdempotent } from '../idempotency/doors';

const MERGE_PATCH = 'application/merge-patch+json';

/**
 * PATCH bodies arrive as application/merge-patch+json (§7). The parser is added in this plugin's own
 * scope, and only when the app does not have one already, so it cannot clash with another domain's.
 */
function acceptMergePatch(scope: FastifyInstance) {
  if (!scope.hasContentTypeParser(MERGE_PATCH)) {
    scope.addContentTypeParser(
      MERGE_PATCH,
      { parseAs: 'string' },
      scope.getDefaultJsonParser('error', 'error'),
    );
  }
}

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

  app.register(async (scope) => {
    acceptMergePatch(scope);
    scope.patch<{ Params: { code: string } }>('/api/utilisateurs/:code', async (request) => {
      const code = utilisateurCodeSchema.parse(request.params.code);
      const patch = updateUtilisateurInputSchema.parse(request.body ?? {});
      return updateUser(db, request.auth!.user, code, patch);
    });
  });

  // An effect behind a GET, as spec §7 names it: refused unless it comes from the application (CSRF).
  app.get<{ Params: { code: string } }>(
    '/api/utilisateur/reset-password/:code',
    { config: { effectfulGet: true } },
    async (request) => {
      const code = utilisateurCodeSchema.parse(request.params.code);
      return sendPasswordReset(db, request.auth!.user, code, config.PUBLIC_URL);
    },
  );

  app.post<{ Params: { code: string } }>(
    '/api/utilisateur/reset-two-factor/:code',
    async (request, reply) => {
      const code = utilisateurCodeSchema.parse(request.params.code);
      await resetTwoFactor(db, request.auth!.user, code, request.log);
      return reply.code(204).send();
    },
  );
}
