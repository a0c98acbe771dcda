import type { FastifyInstance } from 'fastify';
import { loginInputSchema } from '../../../shared/schemas/auth';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { unauthenticated } from '../../errors';
import { clearSessionCookie, setSessionCookie } from '../../http/session-cookie';
import { utilisateurDto } from '../utilisateurs/dto';
import { login, logout } from './service';

export function authRoutes(app: FastifyInstance, db: Database, config: Config) {
  app.post('/api/login', { config: { public: true } }, async (request, reply) => {
    const input = loginInputSchema.parse(request.body ?? {});
    const result = await login(db, input, request.ip);
    setSessionCookie(reply, config, result.token, result.session);
    return result.user;
  });

  app.post('/api/logout', async (request, reply) => {
    if (!request.auth) throw unauthenticated();
    await logout(db, request.auth.session.id);
    clearSessionCookie(reply, config);
    return reply.code(204).send();
  });

  app.get('/api/utilisateur/who-am-i', async (request) => {
    const { user } = request.auth!;
    return utilisateurDto(user, user.code);
  });
}
