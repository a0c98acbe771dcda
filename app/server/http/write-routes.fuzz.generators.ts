// The values the write-route fuzzing (write-routes.fuzz.test.ts) sends: hostile ones (deep nesting,
// prototype keys, lone surrogates, huge numbers, raw bodies) and valid-ish ones drawn from a route's zod
// schema over the codes and IRIs that exist (near misses, edge dates, malformed escapes).
// The bodies drawn from a zod schema are in write-routes.fuzz.schemas.ts.
import fc from 'fast-check';
import { businessDay, DEFAULT_BUSINESS_TIME_ZONE } from '#shared/calendar';

// ------------------------------------------------------------------------------------------------ values

export const DEEP_ARRAY = JSON.parse('['.repeat(60) + ']'.repeat(60)) as unknown;
export const DEEP_OBJECT = JSON.parse('{"a":'.repeat(60) + '1' + '}'.repeat(60)) as unknown;
/** Own keys aimed at Object.prototype: JSON.parse makes them own properties, as a request body would. */
export const PROTO_KEYS = JSON.parse(
  '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}},"prototype":1}',
) as object;

export const HOSTILE_TEXT = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '\udbff\udfff',
  '😀🇲🇬👩‍👩‍👧',
  '\u202eRTL\u202c',
  '\u200f\u200e\u2066',
  'e\u0301',
  '%',
  '%zz',
  '%E9',
  '%ED%A0%80',
  '/api/partenaires/%',
  '/api/subjects/%zz',
  '/api/signalements/%00',
  '/api/canals/%E9',
  '/api/partenaires/',
  '/api/partenaires/../utilisateurs',
  '__proto__',
  'constructor',
  'prototype',
  '-1',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x10',
  '0000-00-00',
  '9999-99-99T99:99',
  '0000-01-01',
  '0001-01-01T00:00:00+01:00',
  '+275760-09-13',
  '-000001-01-01T00:00:00Z',
  '99999-12-31',
  '2025-02-30',
  '2999-01-01',
  '1899-12-31',
  'null',
  'true',
  '[]',
  '{}',
  "'; DROP TABLE signalements; --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  'OTHERS',
  '\r\n',
  '\t',
  ' '.repeat(300),
];
export const LONG_TEXT = [
  'x'.repeat(10_000),
  'é'.repeat(10_001),
  '😀'.repeat(5_000),
  'a'.repeat(70),
  'Ab'.repeat(40_000),
];
export const HUGE_NUMBERS = [
  0,
  -1,
  1.5,
  -0.5,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  2 ** 31,
  2 ** 63,
  4_294_967_296,
];

export const hostileString = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
  { weight: 1, arbitrary: fc.constantFrom(...LONG_TEXT) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 2, maxLength: 30 }) },
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.constantFrom(...HUGE_NUMBERS) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      false,
      [],
      {},
      DEEP_ARRAY,
      DEEP_OBJECT,
      PROTO_KEYS,
      [null],
      [[['/api/partenaires/IVY']]],
    ),
  },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), hostileString, { maxKeys: 3 }) },
);

/** Bodies that are not JSON objects, or not JSON at all. */
export const RAW_BODIES: Array<string | Buffer> = [
  '',
  '{',
  '{"a":',
  'null',
  '[]',
  '"texte"',
  '42',
  'true',
  '{"x":1e999}',
  '{"a":1,"a":2}',
  '\ufeff{}',
  '{"a":"\\u0000"}',
  '{"a":"\\ud800"}',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  Buffer.from([0xff, 0xfe, 0xfd]),
  Buffer.from('{"nomPrenom":"\xe9"}', 'latin1'),
  '['.repeat(5000) + ']'.repeat(5000),
  'x'.repeat(2 * 1024 * 1024 + 10),
];

// ------------------------------------------------------------------------------------------------ valid-ish values

export interface Pools {
  signalements: string[];
  partenaires: string[];
  auteurs: string[];
  sources: string[];
  victimes: string[];
  notes: string[];
  /** Evidence files (docs/decisions/0033). */
  pieces: string[];
  utilisateurs: string[];
  projects: string[];
  mails: number[];
  subjects: string[];
  canals: string[];
  niveaux: string[];
  statuts: string[];
  resultats: string[];
  regions: string[];
  districts: string[];
  communes: string[];
  roles: string[];
  /** Webhook endpoints of the fuzz token's partner (docs/decisions/0051). */
  webhooks: number[];
}

/** The IRI collection of a reference field (shared/schemas: ref(collection)). */
export const COLLECTION_OF: Record<string, keyof Pools & string> = {
  partenaire: 'partenaires',
  owner: 'partenaires',
  subjects: 'subjects',
  canalPrincipal: 'canals',
  canaux: 'canals',
  niveau: 'niveaux',
  statut: 'statuts',
  resultat: 'resultats',
  region: 'regions',
  district: 'districts',
  commune: 'communes',
  projects: 'projects',
  signalement: 'signalements',
  utilisateurRole: 'roles',
};
export const IRI_COLLECTION: Partial<Record<keyof Pools, string>> = { roles: 'utilisateur_roles' };

/** Which codes a `code` (body field or path parameter) names, from the route or procedure path. */
export function poolOfRoute(route: string): keyof Pools {
  const table: Array<[RegExp, keyof Pools]> = [
    // A note's own routes; the report's (/api/signalements/:code/notes) take a report code.
    [/^\/api\/notes\/|^notes\./, 'notes'],
    // An evidence file's own routes; the report's (/api/signalements/:code/pieces-jointes) take a report code.
    [/^\/api\/pieces-jointes\/|^piecesJointes\.delete/, 'pieces'],
    [/presume_auteurs|auteurs\./, 'auteurs'],
    [/sources/, 'sources'],
    [/victimes/, 'victimes'],
    [/partenaires/, 'partenaires'],
    [/utilisateur|passwordTokens|definir/, 'utilisateurs'],
    [/mail/, 'mails'],
    [/projects/, 'projects'],
    // A niveau's deadline (docs/decisions/0032).
    [/delais/, 'niveaux'],
  ];
  return table.find(([pattern]) => pattern.test(route))?.[1] ?? 'signalements';
}

export const today = businessDay(new Date(), DEFAULT_BUSINESS_TIME_ZONE);

/** Where a value goes: its field, the route (for `code`), the codes that exist, and whether to stay valid. */
export interface Target {
  key: string;
  route: string;
  pools: Pools;
  /** Valid-ish only (existing codes, plausible text), so that a good share of requests reaches the services. */
  valid: boolean;
}

export function validString({ key, route, pools, valid }: Target): fc.Arbitrary<unknown> {
  const collection = COLLECTION_OF[key] ?? (key === 'code' ? poolOfRoute(route) : undefined);
  if (collection) {
    const codes = pools[collection].map(String);
    if (codes.length === 0) return fc.constant('INEXISTANT');
    const iri = `/api/${IRI_COLLECTION[collection] ?? collection}/`;
    return fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...codes) },
      { weight: 2, arbitrary: fc.constantFrom(...codes).map((code) => iri + escapePath(code)) },
      { weight: valid ? 0 : 1, arbitrary: fc.constant('INEXISTANT') },
    );
  }
  if (/email/i.test(key))
    return fc.constantFrom(
      'agent@example.mg',
      'Partenaire.Contact@example.mg',
      'nouveau+1@example.mg',
      ' x@y.mg ',
    );
  if (/phone/i.test(key)) return fc.constantFrom('0341234567', '+261341234567', '034 12 345 67', '341234567');
  if (/At$|date/i.test(key))
    return fc.constantFrom('2025-03-10', today, '2024-12-31T10:00:00Z', '1900-01-01', '2020-02-29');
  if (/password/i.test(key)) return fc.constantFrom('un-mot-de-passe-long-42', 'Xk9#mP2$vL8@qR5!wT3');
  if (key === 'content')
    return fc.constantFrom('Bonjour, voici le signalement concerné par votre institution.');
  if (key === 'sigle') return fc.constantFrom('PRJ', 'EPP-2025', 'Ñ');
  // A webhook endpoint's address (docs/decisions/0051): public, private, loopback, other schemes.
  if (key === 'url')
    return fc.constantFrom(
      'https://recepteur.partenaire.example/webhooks',
      'https://8.8.8.8/hooks',
      'http://127.0.0.1:9/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://[::ffff:127.0.0.1]/',
      'https://localhost./',
      'https://2130706433/',
      'file:///etc/passwd',
      'https://user:pass@partenaire.example/',
    );
  return fc.oneof(
    fc.constantFrom(
      'Rakoto Jean',
      'Ravaka Andrianina',
      'Élodie « Lolo »',
      'Anjara',
      'Direction régionale de la santé',
    ),
    fc.string({ unit: 'grapheme', minLength: 2, maxLength: 40 }),
  );
}

export const MALFORMED_ESCAPES = ['%', '%zz', '%E9', '%ED%A0%80', '%00', '%0A', 'IVY%2', '%C0%AF'];
export const EDGE_DATES = [
  '0000-01-01',
  '0000-00-00',
  '9999-99-99T99:99',
  '-000001-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '+010000-01-01',
  '0001-01-01T00:00:00+01:00',
  '9999-12-31T23:59:59-05:00',
  '2025-02-30',
  '1899-12-31',
  '2999-01-01',
  '1',
  'Mon, 1 Jan 0',
];

/** Values one step from valid for a field: the IRI of its collection with a malformed escape, edge dates… */
export function nearMiss({ key, route, pools }: Target): fc.Arbitrary<unknown> {
  const collection = COLLECTION_OF[key] ?? (key === 'code' ? poolOfRoute(route) : undefined);
  if (collection) {
    const iri = `/api/${IRI_COLLECTION[collection] ?? collection}/`;
    return fc.oneof(
      fc.constantFrom(...MALFORMED_ESCAPES).map((escape) => iri + escape),
      fc
        .tuple(fc.constantFrom(...pools[collection].map(String), 'X'), fc.constantFrom(...MALFORMED_ESCAPES))
        .map(([code, escape]) => iri + code + escape),
      fc.constantFrom(
        `${iri}`,
        `${iri}/`,
        iri.replace('/api/', '/api/../'),
        `/api/autre/${pools[collection][0] ?? 'X'}`,
      ),
    );
  }
  if (/At$|date/i.test(key)) return fc.constantFrom(...EDGE_DATES);
  if (/email/i.test(key))
    return fc.constantFrom(
      'a@b',
      'x@y.mg\u0000',
      `${'a'.repeat(250)}@example.mg`,
      'é@é.mg',
      '"a b"@example.mg',
    );
  if (key === 'id') return fc.constantFrom(2 ** 31, 2 ** 53, 1e20, -1, 0, 1.5, '12', '1e3');
  return fc.constantFrom(...LONG_TEXT, ' ', '\u202e', 'OTHERS');
}

/**
 * encodeURIComponent, except that a lone surrogate (which it refuses) is written as the three bytes a
 * careless client would send for it (CESU-8: '\ud800' → %ED%A0%80).
 */
export function escapePath(value: string): string {
  return value
    .split(/([\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff])/)
    .map((part) => {
      if (part.length !== 1 || !/[\ud800-\udfff]/.test(part)) return encodeURIComponent(part);
      const c = part.charCodeAt(0);
      return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    })
    .join('');
}
