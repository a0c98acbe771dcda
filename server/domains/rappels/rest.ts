// The REST door of a staff member's own preferences (docs/decisions/0036-daily-reminders.md): the item
// /api/utilisateur/preferences, the session user's, read and changed (merge-patch) by that user only.
import type { FastifyInstance } from 'fastify';
import { preferencesPatchSchema } from '#shared/schemas/preferences';
import { getPreferences, updatePreferences } from './preferences';

export function preferencesRoutes(app: FastifyInstance) {
  const { ctx } = app;
  app.get('/api/utilisateur/preferences', async (request) => getPreferences(ctx, request.auth!.user));
  app.patch('/api/utilisateur/preferences', async (request) =>
    updatePreferences(ctx, request.auth!.user, preferencesPatchSchema.parse(request.body ?? {})),
  );
}
