// The REST door of a staff member's own preferences (docs/decisions/0036-daily-reminders.md): the item
// /api/utilisateur/preferences, the session user's, read and changed (merge-patch) by that user only.
import type { FastifyInstance } from 'fastify';
import { preferencesPatchSchema } from '#shared/schemas/preferences';
import { preferencesDtoSchema } from '#shared/dto/schemas';
import { operation } from '#server/http/api-doc/operation';
import { getPreferences, updatePreferences } from './preferences';

export function preferencesRoutes(app: FastifyInstance) {
  const { ctx } = app;
  app.get(
    '/api/utilisateur/preferences',
    operation({
      summary: 'Mes préférences (récapitulatif quotidien).',
      resource: 'Preferences',
      access: 'staff',
      responses: { 200: { description: 'Les préférences.', schema: preferencesDtoSchema } },
    }),
    async (request) => getPreferences(ctx, request.auth!.user),
  );
  app.patch(
    '/api/utilisateur/preferences',
    operation({
      summary: 'Modifier mes préférences.',
      resource: 'Preferences',
      access: 'staff',
      body: preferencesPatchSchema,
      responses: { 200: { description: 'Les préférences modifiées.', schema: preferencesDtoSchema } },
    }),
    async (request) =>
      updatePreferences(ctx, request.auth!.user, preferencesPatchSchema.parse(request.body ?? {})),
  );
}
