// The surface the write-route fuzzing (write-routes.fuzz.test.ts) covers: the zod schema of each REST write
// route, the tRPC mutations read from the router, every field name they know, and the path parameters.
import fc from 'fast-check';
import { z } from 'zod';
import { loginInputSchema } from '#shared/schemas/auth';
import { partenaireInputSchema } from '#shared/schemas/partenaires';
import {
  auteurCreateSchema,
  bulkActionInputSchema,
  bulkPreviewSchema,
  auteurSchema,
  localisationSchema,
  notifyPartnerSchema,
  projectCreateSchema,
  signalementCreateSchema,
  signalementPatchSchema,
  sourceCreateSchema,
  sourceSchema,
  victimeCreateSchema,
  victimeSchema,
} from '#shared/schemas/signalements';
import { delaiPatchSchema } from '#shared/schemas/delais';
import { preferencesPatchSchema } from '#shared/schemas/preferences';
import { noteSchema } from '#shared/schemas/notes';
import { partnerWebhookInputSchema } from '#shared/schemas/webhooks';
import {
  createUtilisateurInputSchema,
  passwordField,
  updateUtilisateurInputSchema,
} from '#shared/schemas/utilisateurs';
import { appRouter } from '../trpc/router';
import { escapePath, hostileString, poolOfRoute, type Pools } from './write-routes.fuzz.generators';
import { fieldNames } from './write-routes.fuzz.schemas';

/** The schema each REST write route parses its body with (see the domain's rest.ts). */
export const REST_SCHEMAS: Record<string, z.ZodType | null> = {
  'POST /api/login': loginInputSchema,
  'POST /api/logout': null,
  'POST /api/utilisateur/create-user': createUtilisateurInputSchema,
  'PATCH /api/utilisateurs/:code': updateUtilisateurInputSchema,
  'POST /api/definir-mot-de-passe/:token': z.object({ password: passwordField }),
  'POST /api/partenaires': partenaireInputSchema,
  'PUT /api/partenaires/:code': partenaireInputSchema,
  'DELETE /api/partenaires/:code': null,
  'POST /api/mail_outbox/:id/retry': null,
  'POST /api/signalements': signalementCreateSchema,
  'PATCH /api/signalements/:code': signalementPatchSchema,
  'PATCH /api/signalements/:code/localisation': localisationSchema,
  'PUT /api/signalements/:code/localisation': localisationSchema,
  'POST /api/signalement/:code/notify-partner': notifyPartnerSchema,
  'POST /api/signalements/actions-groupees/apercu': bulkPreviewSchema,
  'POST /api/signalements/actions-groupees': bulkActionInputSchema,
  'POST /api/presume_auteurs': auteurCreateSchema,
  'PATCH /api/presume_auteurs/:code': auteurSchema,
  'DELETE /api/presume_auteurs/:code': null,
  'POST /api/sources': sourceCreateSchema,
  'PATCH /api/sources/:code': sourceSchema,
  'DELETE /api/sources/:code': null,
  'POST /api/victimes': victimeCreateSchema,
  'PATCH /api/victimes/:code': victimeSchema,
  'DELETE /api/victimes/:code': null,
  'POST /api/projects': projectCreateSchema,
  'POST /api/signalements/:code/notes': noteSchema,
  'PATCH /api/notes/:code': noteSchema,
  'DELETE /api/notes/:code': null,
  // The body is a file (application/octet-stream): fuzzed with JSON here, with bytes and names below.
  'POST /api/signalements/:code/pieces-jointes': null,
  'DELETE /api/pieces-jointes/:code': null,
  'PATCH /api/delais_traitement/:code': delaiPatchSchema,
  'PATCH /api/utilisateur/preferences': preferencesPatchSchema,
  // A partner's own webhook endpoints, fuzzed with its token (docs/decisions/0051).
  'POST /api/webhooks': partnerWebhookInputSchema,
  'POST /api/webhooks/:id/secret': null,
  'DELETE /api/webhooks/:id': null,
};

interface Mutation {
  input: z.ZodType | null;
}
export function procedures(): Record<string, Mutation> {
  type Procedure = { _def: { type: string; inputs: unknown[] } };
  const all = (appRouter._def as unknown as { procedures: Record<string, Procedure> }).procedures;
  return Object.fromEntries(
    Object.entries(all)
      .filter(([, p]) => p._def.type === 'mutation')
      .map(([path, p]) => [path, { input: (p._def.inputs[0] as z.ZodType | undefined) ?? null }]),
  );
}

export const KNOWN_FIELDS = [
  ...[...Object.values(REST_SCHEMAS), ...Object.values(procedures()).map((p) => p.input)].reduce(
    (names, schema) => (schema ? fieldNames(schema, names) : names),
    new Set<string>(['code', 'id', 'token']),
  ),
];

/** A path parameter: an existing code, a hostile string (escaped), or a malformed escape as is. */
export function pathValue(name: string, route: string, pools: Pools): fc.Arbitrary<string> {
  const pool =
    name === 'id'
      ? (route.startsWith('/api/webhooks/') ? pools.webhooks : pools.mails).map(String)
      : name === 'token'
        ? []
        : pools[poolOfRoute(route)].map(String);
  return fc.oneof(
    {
      weight: 4,
      arbitrary: pool.length ? fc.constantFrom(...pool).map(escapePath) : fc.constant('INEXISTANT'),
    },
    { weight: 2, arbitrary: hostileString.map(escapePath) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '%',
        '%zz',
        '%E9',
        '%ED%A0%80',
        '%00',
        '%2F',
        '..',
        'a%',
        '99999999999999999999',
        '-1',
        '0',
      ),
    },
  );
}
