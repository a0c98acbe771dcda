import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { passwordField, passwordTokenSchema } from '#shared/schemas/utilisateurs';
import type { Database } from '#server/db/client';
import { definePassword, inspectPasswordToken } from './password-tokens';

// The path segment is the secret: app.ts writes it as '***' in the request log.
const PATH = '/api/definir-mot-de-passe/:token';

export function passwordTokenRoutes(app: FastifyInstance, db: Database) {
  app.get<{ Params: { token: string } }>(PATH, { config: { public: true } }, async (request) =>
    inspectPasswordToken(db, passwordTokenSchema.parse(request.params.token)),
  );

  app.post<{ Params: { token: string } }>(PATH, { config: { public: true } }, async (request, reply) => {
    const token = passwordTokenSchema.parse(request.params.token);
    const { password } = z.object({ password: passwordField }).parse(request.body ?? {});
    await definePassword(db, token, password);
    return reply.code(204).send();
  });
}
