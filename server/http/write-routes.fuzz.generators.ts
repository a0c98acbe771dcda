// The values the write-route fuzzing (write-routes.fuzz.test.ts) sends: hostile ones (deep nesting,
// prototype keys, lone surrogates, huge numbers, raw bodies) and valid-ish ones drawn from a route's zod
// schema over the codes and IRIs that exist (near misses, edge dates, malformed escapes).
import fc from 'fast-check';
import type { z } from 'zod';
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

export type ZodDef = { type: string } & Record<string, unknown>;
export const defOf = (schema: unknown): ZodDef => (schema as { _zod: { def: ZodDef } })._zod.def;

/** An arbitrary of inputs for a zod schema: leaves valid-ish, or (mixed mode) hostile one time in five. */
export function fromSchema(schema: unknown, target: Target, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const at = (key: string) => ({ ...target, key });
  const leaf = (valid: fc.Arbitrary<unknown>) =>
    target.valid
      ? valid
      : fc.oneof(
          { weight: 4, arbitrary: valid },
          { weight: 1, arbitrary: nearMiss(target) },
          { weight: 1, arbitrary: hostileValue },
        );
  if (depth > 6) return hostileValue;
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      const fields = Object.fromEntries(
        Object.entries(shape).map(([k, s]) => [k, fromSchema(s, at(k), depth + 1)]),
      );
      const object = fc.record(fields, { requiredKeys: [] });
      if (target.valid) return fc.oneof(fc.record(fields), object);
      const extra = fc.dictionary(
        fc.constantFrom('__proto__', 'constructor', 'prototype', 'champInconnu', 'x', '\ud800', 'a\u0000'),
        hostileValue,
        { maxKeys: 2 },
      );
      return fc.oneof(
        { weight: 3, arbitrary: fc.record(fields) },
        { weight: 3, arbitrary: object },
        // Through JSON, as a body would arrive: '__proto__' becomes an own key.
        {
          weight: 1,
          arbitrary: fc.tuple(object, extra).map(([o, e]) => ({
            ...(JSON.parse(JSON.stringify(o)) as object),
            ...(JSON.parse(JSON.stringify(e)) as object),
          })),
        },
        { weight: 1, arbitrary: hostileValue },
      );
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return fc.oneof(
        { weight: 6, arbitrary: fromSchema(def.innerType, target, depth) },
        { weight: 1, arbitrary: target.valid ? fc.constant(undefined) : fc.constantFrom(null, undefined) },
      );
    case 'pipe':
      return fromSchema(def.in, target, depth);
    case 'intersection': {
      const left = fromSchema(def.left, target, depth);
      const right = fromSchema(def.right, target, depth);
      return fc
        .tuple(left, right)
        .map(([l, r]) =>
          l && r && typeof l === 'object' && typeof r === 'object' && !Array.isArray(l) && !Array.isArray(r)
            ? { ...l, ...r }
            : l,
        );
    }
    case 'union':
      return fc.oneof(...(def.options as unknown[]).map((o) => fromSchema(o, target, depth)));
    case 'array':
      return leaf(
        fc.array(fromSchema(def.element, target, depth + 1), {
          minLength: 1,
          maxLength: target.valid ? 2 : 4,
        }),
      );
    case 'string':
      return leaf(validString(target));
    case 'number':
    case 'int':
      return leaf(
        target.key === 'id' && target.pools.mails.length
          ? fc.constantFrom(...target.pools.mails)
          : fc.integer({ min: -5, max: 1_000_000 }),
      );
    case 'boolean':
      return leaf(fc.boolean());
    case 'enum':
      return leaf(fc.constantFrom(...Object.values(def.entries as Record<string, string>)));
    case 'literal':
      return leaf(fc.constantFrom(...(def.values as unknown[])));
    default:
      // transform, any, unknown, record… : whatever a user may type.
      return leaf(fc.oneof(validString(target), fc.integer(), fc.boolean()));
  }
}

/**
 * Bodies of a route: from its schema when known, else objects over `knownFields`, every field name the
 * API knows.
 */
export function bodies(
  schema: z.ZodType | null | undefined,
  route: string,
  pools: Pools,
  knownFields: string[],
): fc.Arbitrary<unknown> {
  const generic = fc.dictionary(
    fc.constantFrom(...knownFields, '__proto__', 'constructor', 'prototype'),
    hostileValue,
    { maxKeys: 6 },
  );
  const target = { key: '', route, pools };
  const valid = schema ? fromSchema(schema, { ...target, valid: true }) : fc.constant(undefined);
  const mixed = schema ? fromSchema(schema, { ...target, valid: false }) : fc.constant(undefined);
  return fc.oneof(
    { weight: 4, arbitrary: valid },
    { weight: 4, arbitrary: mixed },
    {
      weight: schema === undefined ? 6 : 1,
      arbitrary: generic.map((o) => JSON.parse(JSON.stringify(o)) as unknown),
    },
    { weight: 1, arbitrary: hostileValue },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES).map((raw) => ({ raw })) },
  );
}

export function fieldNames(schema: unknown, into: Set<string>, depth = 0): Set<string> {
  if (depth > 6) return into;
  const def = defOf(schema);
  if (def.type === 'object') {
    for (const [k, s] of Object.entries(def.shape as Record<string, unknown>)) {
      into.add(k);
      fieldNames(s, into, depth + 1);
    }
  }
  for (const inner of [def.innerType, def.in, def.left, def.right, def.element])
    if (inner) fieldNames(inner, into, depth + 1);
  return into;
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
