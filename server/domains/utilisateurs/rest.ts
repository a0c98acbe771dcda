import type { FastifyInstance } from 'fastify';
import { listUtilisateursInputSchema } from '../../../shared/schemas/utilisateurs';
import type { Database } from '../../db/client';
import { collection, parseQuery } from '../../http/jsonld';
import { roleDto } from './dto';
import { listRoles, listUsers } from './service';

export function utilisateursRoutes(app: FastifyInstance, db: Database) {
  app.get('/api/utilisateurs', async (request) => {
    const input = listUtilisateursInputSchema.parse(parseQuery(request.query as Record<string, unknown>));
    const { items, total } = await listUsers(db, request.auth!.user, input);
    return collection('Utilisateur', request.url, items, total, input);
  });

  app.get('/api/utilisateur_roles', async (request) => {
    const roles = (await listRoles(db)).map(roleDto);
    return collection('UtilisateurRole', request.url, roles, roles.length);
  });
}
