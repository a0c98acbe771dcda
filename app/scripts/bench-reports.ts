// npm run bench:reports [-- --reports 1000000 --engine sqlite|pg|both --db data/bench/demo-sqlite.db]
// Measures the report list with N demo reports (made once by the demo generator in the SQLite file and
// kept for later runs; PostgreSQL gets a copy of the same rows, also kept): the first page with the
// default sort and pages of 1, 20 and 100 rows, each single filter, a combination and search terms, as
// the median server-side time of the REST endpoint (in-process inject) and its ratio to the raw SQL of
// the same statements on the same database; then the peak memory of a process that streams the xlsx
// export of about 100,000 reports. Prints figures; asserts nothing (timings are not tested).
import { dirname, join, resolve } from 'node:path';
import { desc, eq, sql } from 'drizzle-orm';
import Sqlite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '#server/app';
import { loadConfig } from '#server/config';
import { createAppContext } from '#server/context';
import { openDataKey } from '#server/crypto/data-key';
import { openDatabase } from '#server/db/client';
import { seed } from '#server/db/seed/index';
import { createUser } from '#server/domains/utilisateurs/service';
import type { SessionUser } from '#server/domains/auth/session';
import { listPage } from '#server/domains/signalements/queries';
import { signalementListSchema } from '#shared/schemas/signalements';
import { assignDemoReports, postgresCopyOf, topUpDemoReports } from './bench-data';
import { exportFigures } from './bench-export';
import { cliOptions } from './cli';
import { measured, writeFigures, type Cell } from './figures';

const { values } = cliOptions(
  `Usage : npm run bench:reports -- [--reports 1000000] [--runs 15] [--engine sqlite|pg|both] [--db data/bench/demo-sqlite.db] [--no-export] [--export-only]

Mesure la liste des signalements avec N signalements de démonstration (générés une fois et gardés dans
le fichier SQLite --db ; PostgreSQL en reçoit une copie, gardée aussi dans la base
signalements_bench_reports_N) : médiane côté serveur de chaque cas et rapport au SQL brut, puis la
mémoire d'un export xlsx d'environ 100 000 signalements (sauf --no-export ; --export-only : l'export
seul, sans la liste). N'affirme rien : des chiffres seulement.`,
  {
    reports: { type: 'string' },
    db: { type: 'string' },
    runs: { type: 'string' },
    engine: { type: 'string' },
    'no-export': { type: 'boolean' },
    'export-only': { type: 'boolean' },
  },
);
const engines =
  values.engine === 'pg' ? ['postgres'] : values.engine === 'both' ? ['sqlite', 'postgres'] : ['sqlite'];
const BENCH_USER = { email: 'bench@signalements.local', password: 'tamarin-baobab-mangrove-73' };
const PG_ADMIN = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const target = Number(values.reports ?? 1_000_000);
const runs = Number(values.runs ?? 15);
/** Untimed requests of each case before its timed ones: six per connection of the pool's reads (four). */
const WARM_RUNS_PER_CASE = 24;
/**
 * Untimed first pages (and their raw SQL) before the first case: the JIT and the collector settle after the
 * modules' load (60 left PostgreSQL's first page, the first case timed, at 2.4–2.6 ms against 1.8 after 1,500).
 */
const PROCESS_WARM_RUNS = 1000;
const path = resolve(values.db ?? 'data/bench/demo-sqlite.db');
const sqliteUrl = `file:${path}`;
// The demo generator writes sources encrypted: the bench database keeps its key file beside it, and the
// PostgreSQL copy holds the same ciphertexts.
const keyFile = join(dirname(path), 'data.key');
const command = `npm run bench:reports -- ${process.argv.slice(2).join(' ')}`.trim();
const fr = (n: number, digits = 1) => n.toLocaleString('fr-FR', { maximumFractionDigits: digits });

{
  const generator = openDatabase(sqliteUrl);
  await generator.migrate();
  const { cipher } = await openDataKey(generator, { DATABASE_URL: sqliteUrl, DATA_KEY_FILE: keyFile });
  await seed(generator);
  await topUpDemoReports({ db: generator, cipher }, target, { seed: 1, where: path });
  await assignDemoReports(generator);
  await generator.execute(sql`analyze`);
  await generator.close();
}

/** What each engine measured, for docs/figures/ (the console shows the same figures as they come). */
interface ListCase {
  label: string;
  total: string;
  endpoint: number;
  raw: number;
}
const ENGINE_NAMES: Record<string, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
const listResults = new Map<string, { existing: number; cases: ListCase[] }>();
const pageWeights = new Map<string, Array<[door: string, json: number, gzip: number, brotli: number]>>();

const urls: Array<[engine: string, url: string]> = [];
const exportOnly = values['export-only'] ?? false;
for (const engine of engines) urls.push([engine, await measure(engine)]);
if (!exportOnly) writeListFigures();

async function measure(engine: string) {
  const url =
    engine === 'sqlite'
      ? sqliteUrl
      : await postgresCopyOf(path, `signalements_bench_reports_${target}`, PG_ADMIN, target);
  const db = openDatabase(url);
  await db.migrate();
  const { cipher } = await openDataKey(db, { DATABASE_URL: url, DATA_KEY_FILE: keyFile });
  await seed(db);
  const [{ n: existing } = { n: 0 }] = await db.read
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(db.t.signalements);

  const email = BENCH_USER.email;
  const [user] = await db.read.select().from(db.t.utilisateurs).where(eq(db.t.utilisateurs.email, email));
  if (!user)
    await createUser(db, {
      email,
      nomPrenom: 'Banc d’essai',
      roleCode: 'ROLE_USER',
      password: BENCH_USER.password,
    });
  // The export's server is a process of its own (bench-export.ts): this one only prepares the data and the user.
  if (exportOnly) {
    await db.close();
    return url;
  }
  const [me] = await db.read.select().from(db.t.utilisateurs).where(eq(db.t.utilisateurs.email, email));
  const viewer: SessionUser = {
    ...me!,
    role: { code: 'ROLE_USER', designation: 'Utilisateur' },
    twoFactorEnrolled: false,
  };
  const ctx = createAppContext(
    loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', DATA_KEY_FILE: keyFile }),
    { db, cipher },
  );
  const app = await buildApp({ ctx });
  const login = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: BENCH_USER,
  });
  const cookie = `session=${login.cookies.find((c) => c.name === 'session')!.value}`;

  // Real values for the filters, taken from the data.
  const t = db.t;
  const pick = async <T>(q: Promise<T[]>) => (await q)[0]!;
  const partner = await pick(
    db.read
      .select({ code: t.partenaires.code })
      .from(t.partenaires)
      .where(sql`${t.partenaires.code} <> 'IVY'`)
      .limit(1),
  );
  const creator = await pick(
    db.read
      .select({ code: t.utilisateurs.code })
      .from(t.utilisateurs)
      .innerJoin(t.signalements, eq(t.signalements.createdById, t.utilisateurs.id))
      .limit(1),
  );
  // A name of a presumed author: from the SQLite file (the PostgreSQL copy has the search texts that hold
  // the names, not the persons' tables).
  const names = new Sqlite(path, { readonly: true });
  const author = names
    .prepare('select nom_prenom as n from presume_auteurs order by id desc limit 1')
    .get() as { n: string };
  names.close();
  const lastName = author.n.split(' ')[0]!;
  // « Mes dossiers »: the reports of a user who has some (the demo's assignees, assignDemoReports).
  const assignee = await pick(
    db.read
      .select({ code: t.utilisateurs.code })
      .from(t.utilisateurs)
      .innerJoin(t.signalementAssignees, eq(t.signalementAssignees.userId, t.utilisateurs.id))
      .orderBy(t.utilisateurs.code)
      .limit(1),
  );
  const sample = await pick(
    db.read
      .select({ code: t.signalements.code })
      .from(t.signalements)
      .orderBy(desc(t.signalements.id))
      .limit(1),
  );

  const cases: Array<[string, string]> = [
    ['première page, tri par défaut', ''],
    ['page de 1 ligne', 'itemsPerPage=1'],
    ['page de 100 lignes', 'itemsPerPage=100'],
    ['filtres partenaire et objet', `partenaire.code[]=${partner.code}&subjects.code[]=FRAUDE`],
    ['filtre partenaire', `partenaire.code[]=${partner.code}`],
    ['filtre objet', 'subjects.code[]=FRAUDE'],
    ['filtre objets (deux)', 'subjects.code[]=FRAUDE&subjects.code[]=CORRUPTION'],
    ['filtre créateur', `createdBy.code[]=${creator.code}`],
    ['« Mes dossiers » (un assigné)', `assignees.code[]=${assignee.code}`],
    ['« En retard »', 'echeance=en_retard'],
    ['« Non assigné »', 'exists[assignees]=false'],
    ['filtre région', 'region.code=MG11'],
    ['filtre district', 'district.code=MG11101001A'],
    ['filtre commune', 'commune.code=MG11101001'],
    ['filtre dates (un mois)', 'signalementAt[after]=2025-06-01&signalementAt[before]=2025-06-30'],
    ['tri par code', 'order[code]=desc'],
    [`recherche « ${lastName} »`, `search=${encodeURIComponent(lastName)}`],
    ['recherche « detournement »', 'search=detournement'],
    ['recherche « toliara »', 'search=toliara'],
    // A part of a word (inside the token), two words, and a whole report code.
    ['recherche « rison »', 'search=rison'],
    ['recherche « detournement fonds »', 'search=detournement%20fonds'],
    [`recherche « ${sample.code} »`, `search=${encodeURIComponent(sample.code)}`],
  ];

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  async function time(fn: () => Promise<unknown>): Promise<number> {
    // Warm-up: PostgreSQL prepares the loader's statements once per pooled connection (10).
    for (let i = 0; i < 10; i++) await fn();
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await fn();
      samples.push(performance.now() - started);
    }
    return median(samples);
  }

  /**
   * The list's own statements without HTTP, session or DTOs: the total beside the page of ids (listPage's
   * default loader; the endpoint reads the rows from the page, and on PostgreSQL the list as it opens reads
   * its rows and its total in one statement instead, decision 0067).
   */
  async function rawSql(query: string) {
    const parsed = signalementListSchema.parse(Object.fromEntries(new URLSearchParams(query)) as never);
    await listPage(ctx, viewer, { ...parsed, ...nested(query) });
  }

  function nested(query: string) {
    const params = new URLSearchParams(query);
    const out: Record<string, unknown> = {};
    for (const [key, value] of params) {
      const list = key.match(/^(.+)\[\]$/);
      const group = key.match(/^([^[]+)\[([^\]]+)\]$/);
      if (list) out[list[1]!] = [...((out[list[1]!] as string[]) ?? []), value];
      else if (group)
        out[group[1]!] = {
          ...((out[group[1]!] as object) ?? {}),
          [group[2]!]:
            group[2] === 'after' || group[2] === 'before'
              ? new Date(`${value}T00:00:00Z`)
              : group[1] === 'exists'
                ? value === 'true'
                : value,
        };
    }
    return out;
  }

  console.info(
    `\nListe des signalements — ${engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${fr(existing, 0)} signalements, médiane de ${runs} mesures\n`,
  );
  console.info(
    'cas'.padEnd(40) +
      'total'.padStart(12) +
      'endpoint (ms)'.padStart(16) +
      'SQL brut (ms)'.padStart(16) +
      'ratio'.padStart(8),
  );
  const cases_: ListCase[] = [];
  listResults.set(engine, { existing, cases: cases_ });
  // The process's own warm-up (the JIT, the pool's connections, the statements they prepare, the engine's
  // caches, the collector after the modules' load), before any case is timed: the first case measured
  // otherwise carried it (PostgreSQL's first page: its first 20 requests at 4–35 ms, then 2–3 ms; its median
  // read 4.8 ms beside 1.1 for 1 row).
  for (let i = 0; i < PROCESS_WARM_RUNS; i++) {
    await app.inject({ url: '/api/signalements', headers: { cookie } });
    await rawSql('');
  }
  for (const [label, query] of cases) {
    const res = await app.inject({ url: `/api/signalements?${query}`, headers: { cookie } });
    if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body}`);
    // Each case's own warm-up: PostgreSQL plans a prepared statement afresh for its first five runs on each
    // connection before it keeps a generic plan (decision 0066), so the runs timed right after a case's first
    // request measured that planning (a page of one row: 6.8 ms, against 1.9 in steady state).
    for (let i = 0; i < WARM_RUNS_PER_CASE; i++)
      await app.inject({ url: `/api/signalements?${query}`, headers: { cookie } });
    const { totalItems: total, totalItemsExact: exact } = res.json() as {
      totalItems: number;
      totalItemsExact: boolean;
    };
    const endpoint = await time(() => app.inject({ url: `/api/signalements?${query}`, headers: { cookie } }));
    const raw = await time(() => rawSql(query));
    const shown = exact ? fr(total, 0) : `> ${fr(total, 0)}`;
    cases_.push({
      label,
      total: exact ? total.toLocaleString('en-US') : `> ${total.toLocaleString('en-US')}`,
      endpoint: Number(endpoint.toFixed(1)),
      raw: Number(raw.toFixed(1)),
    });
    console.info(
      label.padEnd(40) +
        shown.padStart(12) +
        fr(endpoint).padStart(16) +
        fr(raw).padStart(16) +
        fr(endpoint / raw, 2).padStart(8),
    );
  }
  pageWeights.set(engine, await printPageWeight(app, cookie));
  await app.close();
  await db.close();
  return url;
}
if (!values['no-export'])
  await exportFigures(
    urls.map(([engine, url]) => [ENGINE_NAMES[engine]!, url]),
    BENCH_USER,
    command,
  );

/**
 * Bytes of a page of 20 reports (the list's first page) on both doors, as the server sends them: the JSON
 * itself, then the body it sends to a client that accepts gzip, then brotli (app.ts compresses on the fly).
 */
async function printPageWeight(app: FastifyInstance, cookie: string) {
  const weights: Array<[door: string, json: number, gzip: number, brotli: number]> = [];
  const input = encodeURIComponent(JSON.stringify({ page: 1, itemsPerPage: 20 }));
  const doors: Array<[string, string]> = [
    ['REST GET /api/signalements', '/api/signalements?itemsPerPage=20'],
    ['tRPC signalements.list', `/trpc/signalements.list?input=${input}`],
  ];
  console.info('\nPoids d’une page de 20 signalements (octets envoyés)\n');
  console.info('porte'.padEnd(40) + 'JSON'.padStart(12) + 'gzip'.padStart(12) + 'brotli'.padStart(12));
  for (const [label, url] of doors) {
    const sent = async (encoding: string) => {
      const res = await app.inject({ url, headers: { cookie, 'accept-encoding': encoding } });
      if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body}`);
      return res.rawPayload.length;
    };
    const [raw, gzip, br] = [await sent('identity'), await sent('gzip'), await sent('br')];
    weights.push([label, raw, gzip, br]);
    console.info(
      label.padEnd(40) + fr(raw, 0).padStart(12) + fr(gzip, 0).padStart(12) + fr(br, 0).padStart(12),
    );
  }
  return weights;
}

/**
 * docs/figures/reports-list-<N>.json (one file per size, so a small run never replaces the 1,000,000's
 * figures) and docs/figures/reports-bytes.json (a page of 20 reports, the first engine measured).
 */
function writeListFigures() {
  const measuredEngines = [...listResults.keys()];
  const first = listResults.get(measuredEngines[0]!)!;
  const rows: Cell[][] = first.cases.map((item, i) => {
    const totals = measuredEngines.map((engine) => listResults.get(engine)!.cases[i]!.total);
    const total = totals.every((value) => value === totals[0])
      ? totals[0]!
      : measuredEngines.map((engine, j) => `${ENGINE_NAMES[engine]}: ${totals[j]}`).join(', ');
    return [
      item.label,
      total,
      ...measuredEngines.flatMap((engine) => {
        const measuredCase = listResults.get(engine)!.cases[i]!;
        return [measuredCase.endpoint, measuredCase.raw];
      }),
    ];
  });
  const sizes = measuredEngines
    .map(
      (engine) => `${listResults.get(engine)!.existing.toLocaleString('en-US')} on ${ENGINE_NAMES[engine]}`,
    )
    .join(', ');
  console.info(
    `\n${writeFigures(
      measured(`reports-list-${target}`, command, [
        {
          caption: `The report list, reports in the database: ${sizes}; median server-side time of \`GET /api/signalements\` (in-process) and of the raw SQL it runs, over ${runs} runs (ms).`,
          columns: [
            'case',
            'total',
            ...measuredEngines.flatMap((engine) => [
              `${ENGINE_NAMES[engine]} endpoint`,
              `${ENGINE_NAMES[engine]} raw SQL`,
            ]),
          ],
          decimals: [null, null, ...measuredEngines.flatMap(() => [1, 1])],
          rows,
        },
      ]),
    )}`,
  );
  const weights = pageWeights.get(measuredEngines[0]!)!;
  console.info(
    `\n${writeFigures(
      measured('reports-bytes', command, [
        {
          caption: `Bytes of the list's first page of 20 reports as the server sends it (${ENGINE_NAMES[measuredEngines[0]!]}): the JSON, then the body a client accepting gzip, then brotli, receives.`,
          columns: ['door', 'JSON', 'gzip', 'brotli'],
          rows: weights.map(([door, json, gzip, brotli]) => [door, json, gzip, brotli]),
        },
      ]),
    )}`,
  );
}
