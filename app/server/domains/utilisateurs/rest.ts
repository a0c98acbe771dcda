import type { FastifyInstance } from 'fastify';
import { codeParamsSchema } from '#shared/schemas/common';
import {
  createUtilisateurInputSchema,
  listUtilisateursInputSchema,
  updateUtilisateurInputSchema,
} from '#shared/schemas/utilisateurs';
import type { Config } from '#server/config';
import type { Database } from '#server/db/client';
import { z } from 'zod';
import { utilisateurDtoSchema, utilisateurRoleDtoSchema } from '#shared/dto/schemas';
import { operation } from '#server/http/api-doc/operation';
import { collectionSchema } from '#server/http/api-doc/schemas';
import { collection, parseQuery } from '#server/http/jsonld';
import { resetTwoFactor } from '../auth/two-factor-reset';
import { roleDto } from './dto';
import { inviteUser, rereadInvitedUser, sendPasswordReset, updateUser } from './manage';
import { listRoles, listUsers } from './service';
import { restIdempotent } from '../idempotency/doors';

export function utilisateursRoutes(app: FastifyInstance, db: Database, config: Config) {
  app.get(
    '/api/utilisateurs',
    operation({
      summary: 'Les utilisateurs, par pages.',
      resource: 'Utilisateur',
      collection: true,
      access: 'admin',
      query: listUtilisateursInputSchema,
      responses: {
        200: { description: 'Une page d’utilisateurs.', schema: collectionSchema(utilisateurDtoSchema) },
      },
    }),
    async (request) => {
      const input = listUtilisateursInputSchema.parse(parseQuery(request.query as Record<string, unknown>));
      const { items, total } = await listUsers(db, request.auth!.user, input);
      return collection('Utilisateur', request.url, items, total, input);
    },
  );

  app.get(
    '/api/utilisateur_roles',
    operation({
      summary: 'Les rôles.',
      resource: 'UtilisateurRole',
      collection: true,
      access: 'staff',
      responses: { 200: { description: 'Les rôles.', schema: collectionSchema(utilisateurRoleDtoSchema) } },
    }),
    async (request) => {
      const roles = (await listRoles(db)).map(roleDto);
      return collection('UtilisateurRole', request.url, roles, roles.length);
    },
  );

  app.post(
    '/api/utilisateur/create-user',
    operation({
      summary: 'Inviter un utilisateur (il reçoit un lien pour définir son mot de passe).',
      resource: 'Utilisateur',
      access: 'admin',
      body: createUtilisateurInputSchema,
      idempotent: true,
      responses: { 201: { description: 'L’utilisateur créé.', schema: utilisateurDtoSchema } },
    }),
    async (request, reply) => {
      const input = createUtilisateurInputSchema.parse(request.body ?? {});
      const user = await restIdempotent(
        app.ctx,
        request,
        reply,
        input,
        () => inviteUser(app.ctx, request.auth!.user, input, config.PUBLIC_URL),
        (stored) => rereadInvitedUser(request.auth!.user, stored),
      );
      return reply.code(201).send(user);
    },
  );

  // PATCH bodies (application/merge-patch+json, §7) are parsed by the app's parser (http/merge-patch.ts).
  app.patch(
    '/api/utilisateurs/:code',
    operation({
      summary: 'Modifier un utilisateur (nom, rôle, activation).',
      resource: 'Utilisateur',
      access: 'admin',
      params: codeParamsSchema,
      body: updateUtilisateurInputSchema,
      responses: { 200: { description: 'L’utilisateur modifié.', schema: utilisateurDtoSchema } },
    }),
    async (request) => {
      const { code } = codeParamsSchema.parse(request.params);
      const patch = updateUtilisateurInputSchema.parse(request.body ?? {});
      return updateUser(app.ctx, request.auth!.user, code, patch);
    },
  );

  // An effect behind a GET, as spec §7 names it: refused unless it comes from the application (CSRF).
  app.get(
    '/api/utilisateur/reset-password/:code',
    operation(
      {
        summary:
          'Envoyer à un utilisateur un lien de réinitialisation du mot de passe (effet : même origine).',
        access: 'admin',
        params: codeParamsSchema,
        responses: { 200: { description: 'Lien envoyé.', schema: z.object({ message: z.string() }) } },
      },
      { effectfulGet: true },
    ),
    async (request) => {
      const { code } = codeParamsSchema.parse(request.params);
      return sendPasswordReset(db, request.auth!.user, code, config.PUBLIC_URL);
    },
  );

  app.post(
    '/api/utilisateur/reset-two-factor/:code',
    operation({
      summary: 'Réinitialiser le second facteur d’un utilisateur (il en est averti par e-mail).',
      access: 'admin',
      params: codeParamsSchema,
      responses: { 204: { description: 'Second facteur réinitialisé.' } },
    }),
    async (request, reply) => {
      const { code } = codeParamsSchema.parse(request.params);
      await resetTwoFactor(app.ctx, request.auth!.user, code, request.log);
      return reply.code(204).send();
    },
  );
}
