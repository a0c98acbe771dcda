import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { passwordField, passwordTokenSchema } from '#shared/schemas/utilisateurs';
import type { Database } from '#server/db/client';
import { operation } from '#server/http/api-doc/operation';
import { passwordTokenStateSchema } from '#shared/dto/schemas';
import { definePassword, inspectPasswordToken } from './password-tokens';

const params = z.object({ token: passwordTokenSchema });
const body = z.object({ password: passwordField });

// The path segment is the secret: app.ts writes it as '***' in the request log.
const PATH = '/api/definir-mot-de-passe/:token';

export function passwordTokenRoutes(app: FastifyInstance, db: Database) {
  app.get<{ Params: { token: string } }>(
    PATH,
    operation({
      summary: 'État d’un lien de définition du mot de passe (invitation ou réinitialisation).',
      access: 'public',
      params,
      responses: {
        200: {
          description: 'Le lien : valide, ou pourquoi il ne l’est pas.',
          schema: passwordTokenStateSchema,
        },
      },
    }),
    async (request) => inspectPasswordToken(db, params.shape.token.parse(request.params.token)),
  );

  app.post<{ Params: { token: string } }>(
    PATH,
    operation({
      summary: 'Définir son mot de passe avec le lien reçu par e-mail.',
      access: 'public',
      params,
      body,
      responses: { 204: { description: 'Mot de passe enregistré.' } },
    }),
    async (request, reply) => {
      const token = params.shape.token.parse(request.params.token);
      const { password } = body.parse(request.body ?? {});
      await definePassword(db, token, password);
      return reply.code(204).send();
    },
  );
}
