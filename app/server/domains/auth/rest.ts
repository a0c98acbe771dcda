import type { FastifyInstance } from 'fastify';
import { loginInputSchema, recoveryCodeInputSchema, twoFactorVerifyInputSchema } from '#shared/schemas/auth';
import type { Config } from '#server/config';
import type { Database } from '#server/db/client';
import { unauthenticated } from '#server/errors';
import { clearSessionCookie, setSessionCookie } from '#server/http/session-cookie';
import { operation } from '#server/http/api-doc/operation';
import { currentUserDtoSchema } from '#shared/dto/schemas';
import { z } from 'zod';
import { currentUserAnswer, login, logout } from './service';
import { useRecoveryCode, verifyTwoFactorCode } from './two-factor';

export function authRoutes(app: FastifyInstance, db: Database, config: Config) {
  const { ctx } = app;
  app.post(
    '/api/login',
    operation({
      summary: 'Se connecter : ouvre une session (cookie) ; le second facteur peut rester dû.',
      access: 'public',
      body: loginInputSchema,
      responses: { 200: { description: 'L’utilisateur connecté.', schema: currentUserDtoSchema } },
    }),
    async (request, reply) => {
      const input = loginInputSchema.parse(request.body ?? {});
      const result = await login(ctx, input, request.ip);
      setSessionCookie(reply, config, result.token, result.session);
      return currentUserAnswer(result.auth, ctx);
    },
  );

  app.post(
    '/api/logout',
    operation({
      summary: 'Se déconnecter : ferme la session.',
      access: 'twoFactorStep',
      responses: { 204: { description: 'Session fermée.' } },
    }),
    async (request, reply) => {
      if (!request.auth) throw unauthenticated();
      await logout(db, request.auth.session.id);
      clearSessionCookie(reply, config);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/utilisateur/who-am-i',
    operation({
      summary: 'L’utilisateur de la session, et le second facteur encore dû.',
      access: 'twoFactorStep',
      responses: { 200: { description: 'L’utilisateur connecté.', schema: currentUserDtoSchema } },
    }),
    async (request) => currentUserAnswer(request.auth!, ctx),
  );

  // The second step of a log-in through the REST facade (enrolment is done in the application).
  app.post(
    '/api/two-factor/verify',
    operation({
      summary: 'Donner le code du second facteur (application d’authentification).',
      access: 'twoFactorStep',
      body: twoFactorVerifyInputSchema,
      responses: { 204: { description: 'Code accepté : la session est complète.' } },
    }),
    async (request, reply) => {
      const { code } = twoFactorVerifyInputSchema.parse(request.body ?? {});
      await verifyTwoFactorCode(ctx, request.auth!, request.ip, code);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/two-factor/recovery',
    operation({
      summary: 'Donner un code de secours à la place du code du second facteur.',
      access: 'twoFactorStep',
      body: recoveryCodeInputSchema,
      responses: {
        200: {
          description: 'Code accepté ; le nombre de codes de secours restants.',
          schema: z.object({ remaining: z.number().int() }),
        },
      },
    }),
    async (request) => {
      const { code } = recoveryCodeInputSchema.parse(request.body ?? {});
      return useRecoveryCode(ctx, request.auth!, request.ip, code);
    },
  );
}
