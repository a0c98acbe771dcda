import type { FastifyInstance } from 'fastify';
import { loginInputSchema, recoveryCodeInputSchema, twoFactorVerifyInputSchema } from '#shared/schemas/auth';
import type { Config } from '#server/config';
import type { Database } from '#server/db/client';
import { unauthenticated } from '#server/errors';
import { clearSessionCookie, setSessionCookie } from '#server/http/session-cookie';
import { currentUserAnswer, login, logout } from './service';
import { useRecoveryCode, verifyTwoFactorCode } from './two-factor';

export function authRoutes(app: FastifyInstance, db: Database, config: Config) {
  const { ctx } = app;
  app.post('/api/login', { config: { public: true } }, async (request, reply) => {
    const input = loginInputSchema.parse(request.body ?? {});
    const result = await login(ctx, input, request.ip);
    setSessionCookie(reply, config, result.token, result.session);
    return currentUserAnswer(result.auth, ctx);
  });

  app.post('/api/logout', { config: { twoFactorStep: true } }, async (request, reply) => {
    if (!request.auth) throw unauthenticated();
    await logout(db, request.auth.session.id);
    clearSessionCookie(reply, config);
    return reply.code(204).send();
  });

  app.get('/api/utilisateur/who-am-i', { config: { twoFactorStep: true } }, async (request) =>
    currentUserAnswer(request.auth!, ctx),
  );

  // The second step of a log-in through the REST facade (enrolment is done in the application).
  app.post('/api/two-factor/verify', { config: { twoFactorStep: true } }, async (request, reply) => {
    const { code } = twoFactorVerifyInputSchema.parse(request.body ?? {});
    await verifyTwoFactorCode(ctx, request.auth!, request.ip, code);
    return reply.code(204).send();
  });

  app.post('/api/two-factor/recovery', { config: { twoFactorStep: true } }, async (request) => {
    const { code } = recoveryCodeInputSchema.parse(request.body ?? {});
    return useRecoveryCode(ctx, request.auth!, request.ip, code);
  });
}
