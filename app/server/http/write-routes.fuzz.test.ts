// Property-based fuzzing of every write the server accepts (decision 0015, "Hostile input"): whatever bytes a
// user sends to a REST write route or a tRPC mutation, the answer is a 2xx, or a 4xx with a French message —
// never a 5xx — the same on SQLite and PostgreSQL, and a refused request leaves the database untouched.
//
// Routes are enumerated, not listed: REST writes from `app.routeList`, mutations from the tRPC router, so
// a new route is fuzzed without editing this file. Bodies are drawn from the route's zod input schema
// (tRPC: the procedure's own; REST: the schema its rest.ts parses, or — for a route not in REST_SCHEMAS —
// objects over every known field name), each field valid-ish (existing codes, IRIs, dates) or hostile.
//
// The same seed draws the same requests on both engines (pools of codes in creation order), and the two
// runs must answer them with the same statuses, one by one.
//
// Reproduce a failure with the seed it prints: FUZZ_SEED=<seed> npx vitest run <this file>. Explore more:
// FUZZ_SEED=$RANDOM FUZZ_RUNS=60 (FUZZ_TALLY=1 prints the answers per route and status class).
//
// Beside this file: the surface (write-routes.fuzz.surface.ts), the checks of each answer (.checks.ts), the
// data the run starts from (.fixtures.ts) and the values and bodies it sends (.generators.ts, .schemas.ts).
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { bearer, createToken, registerPartnerEndpoint } from '#tests/helpers/jetons-api';
import { createReport } from '#tests/helpers/signalements';
import { API_TOKEN_SCOPES } from '#shared/constants';
import { SESSION_ENDED_MESSAGE } from '../domains/auth/two-factor-guesses';
import { isStorableText } from './input-guard';
import {
  changedTables,
  refusalProblem,
  snapshot,
  staticFingerprint,
  WRITTEN_BY_TOKEN_USE,
  WRITTEN_WHEN_SESSION_ENDED,
} from './write-routes.fuzz.checks';
import { readPools, seedFixtures } from './write-routes.fuzz.fixtures';
import { hostileString, type Pools } from './write-routes.fuzz.generators';
import { bodies } from './write-routes.fuzz.schemas';
import { KNOWN_FIELDS, pathValue, procedures, REST_SCHEMAS } from './write-routes.fuzz.surface';

/** Who sends: the two staff sessions, or a partner's API token. */
type Role = 'admin' | 'user' | 'jeton';

const SEED = Number(process.env.FUZZ_SEED ?? 20_250_610);
/** Runs per route and per property; each run sends one request as an administrator and one as a user. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 18);

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The run time follows FUZZ_RUNS; a test must not time out and leave its requests running under the next. */
const LONG = { timeout: 600_000 };

// ------------------------------------------------------------------------------------------------ the suite

/** Each engine's answers, in order ("route role status"): the same seed must get the same answers. */
const answers = new Map<string, string[]>();

describe.each(await testEngines())('fuzzing every write route and mutation (%s)', (engine) => {
  let t: TestApp;
  const cookies = { admin: '', user: '' };
  const actors = { admin: 'fuzz-admin@example.mg', user: 'fuzz-agent@example.mg' };
  /** A partner's API token with every scope: the doors only a token opens are fuzzed with it (0051). */
  let partnerToken = '';
  let fixedAtStart: Map<string, string>;
  let actorCodes: string[] = [];
  let pools: Pools;
  let last: Map<string, string>;
  let sent = 0;
  let started = 0;
  /** Answers per status class and route, printed at the end: a fuzz that only ever reaches 400 proves little. */
  const tally = new Map<string, number>();

  async function refreshPools(): Promise<void> {
    pools = await readPools(t.db, actorCodes);
  }

  /** Log in again any actor whose session a fuzzed request ended (log-out). */
  async function keepSessions(): Promise<void> {
    for (const role of ['admin', 'user'] as const) {
      const res = await t.app.inject({
        url: '/api/utilisateur/who-am-i',
        headers: { cookie: cookies[role] },
      });
      if (res.statusCode !== 200) cookies[role] = await t.login(actors[role]);
    }
    last = await snapshot(t.db);
  }

  async function send(
    name: string,
    role: Role,
    method: string,
    url: string,
    body: unknown,
    contentType: string,
    extraHeaders: Record<string, string> = {},
  ) {
    const raw =
      body && typeof body === 'object' && 'raw' in body ? (body as { raw: string | Buffer }).raw : undefined;
    const payload = raw ?? (body === undefined ? undefined : JSON.stringify(body));
    const headers: Record<string, string> = {
      ...(role === 'jeton'
        ? bearer(partnerToken)
        : { cookie: cookies[role], 'sec-fetch-site': 'same-origin' }),
      // Log-in attempts are throttled per address: fuzzed ones must not lock out the actors' re-login.
      'x-forwarded-for': `10.${sent % 250}.${Math.floor(sent / 250) % 250}.7`,
      ...extraHeaders,
    };
    if (payload !== undefined) headers['content-type'] = contentType;
    const before = last;
    const res = await t.app.inject({ method: method as 'POST', url, headers, payload });
    sent += 1;
    answers.set(engine, [...(answers.get(engine) ?? []), `${name} ${role} ${method} ${res.statusCode}`]);
    const tallyKey = `${name} ${Math.floor(res.statusCode / 100)}xx`;
    tally.set(tallyKey, (tally.get(tallyKey) ?? 0) + 1);
    last = await snapshot(t.db);
    const problem = refusalProblem(res);
    if (problem)
      throw new Error(`${role} ${method} ${url} → ${problem}\nbody: ${String(payload).slice(0, 300)}`);
    if (res.statusCode >= 400) {
      const ended = res.statusCode === 401 && res.body.includes(SESSION_ENDED_MESSAGE);
      const changed = changedTables(before, last).filter(
        (name) =>
          !(ended && WRITTEN_WHEN_SESSION_ENDED.has(name)) &&
          !(role === 'jeton' && WRITTEN_BY_TOKEN_USE.has(name)),
      );
      if (changed.length)
        throw new Error(
          `${role} ${method} ${url} → ${res.statusCode} but wrote ${changed.join(', ')}\nbody: ${String(payload).slice(0, 300)}`,
        );
    }
    return res;
  }

  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'application/merge-patch+json',
        'application/json; charset=latin1',
        'text/plain',
        'application/x-www-form-urlencoded',
      ),
    },
  );

  async function fuzz(
    name: string,
    request: (pools: Pools) => fc.Arbitrary<{ url: string; method: string; body: unknown }>,
    roles: readonly Role[] = ['admin', 'user'],
  ) {
    await keepSessions();
    await refreshPools();
    const fixed = await staticFingerprint(t.db);
    await fc
      .assert(
        fc.asyncProperty(request(pools), contentType, async ({ url, method, body }, type) => {
          for (const role of roles) await send(name, role, method, url, body, type);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true, verbose: 0 },
      )
      .catch((error: Error) => {
        const cause = error.cause instanceof Error ? `\n${error.cause.message}` : '';
        // Counterexamples hold 10,000-character strings: runs of one character are written as x×10000.
        const short = (text: string) =>
          text.replace(/([^\\])\1{49,}/gu, (run, c: string) => `${c}×${[...run].length}`);
        throw new Error(short(`${name} (${engine}, FUZZ_SEED=${SEED}): ${error.message}${cause}`));
      });
    const changed = changedTables(fixed, await staticFingerprint(t.db));
    if (changed.length) throw new Error(`${name} (${engine}, FUZZ_SEED=${SEED}) wrote ${changed.join(', ')}`);
  }

  beforeAll(async () => {
    started = Date.now();
    // The services' clock stands still: a note stays within its author's 15 minutes however long the run
    // takes, so both engines get the same answers (docs/decisions/0029).
    const frozenAt = new Date(started);
    t = await createTestApp(engine, {}, { clock: { now: () => new Date(frozenAt) } });
    actorCodes = [
      await t.user(actors.admin, 'ROLE_ADMIN', 'Admin Fuzz'),
      await t.user(actors.user, 'ROLE_USER', 'Agent Fuzz'),
    ];
    await t.user('cible-1@example.mg', 'ROLE_USER', 'Rasoa Cible');
    await t.user('cible-2@example.mg', 'ROLE_ADMIN', 'Rabe Cible');
    cookies.admin = await t.login(actors.admin);
    cookies.user = await t.login(actors.user);
    await seedFixtures(t, cookies);
    partnerToken = (await createToken(t, cookies.admin, { partenaire: 'IVY', scopes: [...API_TOKEN_SCOPES] }))
      .secret;
    await registerPartnerEndpoint(t, partnerToken);
    fixedAtStart = await staticFingerprint(t.db);
  });

  // The tables no request writes, after every test (fuzz() checks them after each route too).
  afterEach(async () => {
    expect(changedTables(fixedAtStart, await staticFingerprint(t.db))).toEqual([]);
  });

  afterAll(async () => {
    const byClass = [...tally].reduce<Record<string, number>>((acc, [key, n]) => {
      const cls = key.slice(key.lastIndexOf(' ') + 1);
      acc[cls] = (acc[cls] ?? 0) + n;
      return acc;
    }, {});
    console.info(
      `fuzz ${engine}: ${sent} requests in ${((Date.now() - started) / 1000).toFixed(1)} s (seed ${SEED}) ${JSON.stringify(byClass)}`,
    );
    if (process.env.FUZZ_TALLY)
      console.info(
        [...tally]
          .sort()
          .map(([key, n]) => `${key}: ${n}`)
          .join('\n'),
      );
    await t?.close();
  });

  it('enumerates the surface: every REST write under /api and every tRPC mutation', () => {
    const rest = t.app.routeList
      .filter((r) => WRITES.has(r.method) && r.url.startsWith('/api/'))
      .map((r) => `${r.method} ${r.url}`);
    // A renamed route would silently lose its schema (and be fuzzed with generic bodies only).
    expect(rest).toEqual(expect.arrayContaining(Object.keys(REST_SCHEMAS)));
    expect(Object.keys(procedures()).length).toBeGreaterThanOrEqual(20);
    expect(Object.values(procedures()).filter((p) => p.input).length).toBeGreaterThanOrEqual(19);
  });

  it('REST write routes: never a 5xx, refusals in French and without any write', LONG, async () => {
    const routes = t.app.routeList.filter((r) => WRITES.has(r.method) && r.url.startsWith('/api/'));
    for (const route of routes) {
      const key = `${route.method} ${route.url}`;
      const params = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
      await fuzz(
        key,
        (p) =>
          fc
            .record({
              values: fc.tuple(...params.map((param) => pathValue(param, route.url, p))),
              body: bodies(REST_SCHEMAS[key], route.url, p, KNOWN_FIELDS),
            })
            .map(({ values, body }) => ({
              method: route.method,
              url: params.reduce((url, param, i) => url.replace(`:${param}`, values[i]!), route.url),
              body,
            })),
        // A partner's own doors answer its token only: fuzzed with it, not with the sessions (0051).
        route.config.tokenOnly ? ['jeton'] : ['admin', 'user'],
      );
    }
  });

  it('tRPC mutations: never a 5xx, refusals in French and without any write', LONG, async () => {
    for (const [path, { input }] of Object.entries(procedures())) {
      await fuzz(path, (p) =>
        fc
          .record({ batch: fc.boolean(), body: bodies(input, path, p, KNOWN_FIELDS) })
          .map(({ batch, body }) => ({
            method: 'POST',
            url: batch ? `/trpc/${path}?batch=1` : `/trpc/${path}`,
            body: batch && !(body && typeof body === 'object' && 'raw' in body) ? { 0: body } : body,
          })),
      );
    }
  });

  it(
    'evidence upload: any bytes under any name, never a 5xx, refusals in French and without any write',
    LONG,
    async () => {
      await keepSessions();
      await refreshPools();
      const pdfHead = Buffer.from('%PDF-1.4\n');
      const content = fc.oneof(
        fc.uint8Array({ maxLength: 3000 }).map((bytes) => Buffer.from(bytes)),
        fc.uint8Array({ maxLength: 3000 }).map((bytes) => Buffer.concat([pdfHead, Buffer.from(bytes)])),
        fc.constantFrom(Buffer.from('MZ\x90\x00'), Buffer.from('<svg onload=alert(1)>'), Buffer.alloc(0)),
      );
      const name = fc.oneof(
        fc.string({ unit: 'grapheme', maxLength: 60 }).map(encodeURIComponent),
        hostileString.map((text) => {
          try {
            return encodeURIComponent(text);
          } catch {
            return '%ED%A0%80';
          }
        }),
        fc.constantFrom('%', '%zz', '%00.pdf', '..', '%2F..%2Fetc', 'a'.repeat(300), 'photo.jpg'),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...pools.signalements, 'INEXISTANT'),
          content,
          name,
          fc.constantFrom('application/octet-stream', 'application/json', 'text/plain'),
          async (report, bytes, fileName, type) => {
            for (const role of ['admin', 'user'] as const)
              await send(
                'upload',
                role,
                'POST',
                `/api/signalements/${report}/pieces-jointes`,
                { raw: bytes },
                type,
                { 'x-nom-fichier': fileName },
              );
          },
        ),
        { seed: SEED, numRuns: RUNS * 2, endOnFailure: true },
      );
    },
  );

  it(
    'stores any text without NUL or lone surrogate as it was sent (emoji, RTL marks, combining marks)',
    LONG,
    async () => {
      await keepSessions();
      const report = await createReport(t, cookies.user);
      const text = fc.oneof(
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 200 }).filter(isStorableText),
        fc.constantFrom('😀🇲🇬👩‍👩‍👧', '\u202eRTL\u202c', 'e\u0301', 'x'.repeat(20_000)),
      );
      await fc.assert(
        fc.asyncProperty(text, async (description) => {
          const res = await send(
            'faithful',
            'user',
            'PATCH',
            `/api/signalements/${report}`,
            { description },
            'application/merge-patch+json',
          );
          expect(res.statusCode, res.body).toBe(200);
          const read = await t.app.inject({
            url: `/api/signalements/${report}`,
            headers: { cookie: cookies.user },
          });
          expect(read.json().description).toBe(description.trim() === '' ? null : description.trim());
        }),
        { seed: SEED, numRuns: RUNS * 2, endOnFailure: true },
      );
    },
  );

  it('left the database consistent: children of existing reports, every report with a subject and a history', async () => {
    const orphans = await t.db.rows<{ n: number | string }>(sql`
      SELECT (SELECT count(*) FROM signalements s WHERE NOT EXISTS (SELECT 1 FROM signalement_subjects x WHERE x.signalement_id = s.id))
           + (SELECT count(*) FROM signalements s WHERE NOT EXISTS (SELECT 1 FROM signalement_historique h WHERE h.signalement_id = s.id))
           + (SELECT count(*) FROM source_canaux c WHERE NOT EXISTS (SELECT 1 FROM sources s WHERE s.id = c.source_id))
           + (SELECT count(*) FROM presume_auteurs a WHERE NOT EXISTS (SELECT 1 FROM signalements s WHERE s.id = a.signalement_id)) AS n`);
    expect(Number(orphans[0]!.n)).toBe(0);
    expect(sent).toBeGreaterThan(0);
  });
});

describe('both engines', () => {
  it('answered every fuzzed request with the same status on SQLite and PostgreSQL', () => {
    const [sqlite, postgres] = [answers.get('sqlite'), answers.get('postgres')];
    if (!sqlite || !postgres) return; // PostgreSQL unreachable: testEngines() warned.
    const first = sqlite.findIndex((answer, i) => answer !== postgres[i]);
    expect(
      first,
      `request #${first}: SQLite ${sqlite[first]}, PostgreSQL ${postgres[first]} (FUZZ_SEED=${SEED})`,
    ).toBe(-1);
    expect(postgres).toHaveLength(sqlite.length);
  });
});
