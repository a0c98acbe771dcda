// Load benchmark (not a test; README « Benchmarks »): the built server in its own process, on loopback, under
// autocannon with 50 connections of mixed traffic — 80 % list with filters, 15 % detail, 5 % create — on
// N demo reports (1,000,000 by default; generated once and kept), for SQLite and PostgreSQL. Prints
// requests per second and p50/p95/p99 latencies, and the same for an authenticated no-op route
// (GET /api/canals) as the ceiling of the server and the machine. Bounded: each run lasts --duration
// seconds. Run `npm run build:server` (or `npm run build`) first.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { desc, sql } from 'drizzle-orm';
import { openDataKey } from '#server/crypto/data-key';
import { DEFAULT_POOL_READERS, openDatabase, type Database } from '#server/db/client';
import { DEFAULT_READS_AT_ONCE } from '#server/http/read-gate';
import { seed } from '#server/db/seed/index';
import { createUser, findUserByEmail } from '#server/domains/utilisateurs/service';
import { postgresCopyOf, topUpDemoReports } from './bench-data';
import { cliOptions } from './cli';
import { measured, typedCommand, writeFigures, type Cell } from './figures';

const USAGE = `Usage : npm run bench:load -- [--reports 1000000] [--engine sqlite|pg|both] [--connections 50] [--duration 20] [--read-workers N] [--pool-readers N] [--reads-at-once N] [--cpu-prof DOSSIER]

Lance le serveur construit (dist/server) dans son propre processus et le charge avec autocannon sur la
boucle locale : 50 connexions, 80 % de listes filtrées, 15 % de détails, 5 % de créations, sur N
signalements de démonstration (générés une fois puis gardés, un jeu par nombre N : data/bench/load-N/
pour SQLite, base PostgreSQL signalements_bench_load_N). Affiche requêtes par seconde et latences p50, p95, p99, et les mêmes chiffres
pour une route authentifiée qui ne fait rien (GET /api/canals), le plafond. --read-workers fixe
DATABASE_READ_WORKERS du serveur (SQLite ; 0 : lectures sur le fil principal). --pool-readers fixe
DATABASE_POOL_READERS (PostgreSQL : connexions que les lectures peuvent tenir à la fois). --reads-at-once fixe
READS_AT_ONCE (lectures que le serveur sert à la fois, les autres attendent leur tour). --creates fixe la part
des créations dans le mélange, en % (5 par défaut ; 100 : rien que des créations, comme un terminal qui
renvoie d'un coup ce qu'il a saisi hors ligne ; le reste garde ses proportions). --cpu-prof écrit le profil
CPU du serveur (node --cpu-prof) dans DOSSIER. N'affirme rien.`;

const { values } = cliOptions(USAGE, {
  reports: { type: 'string' },
  engine: { type: 'string' },
  connections: { type: 'string' },
  duration: { type: 'string' },
  'read-workers': { type: 'string' },
  'pool-readers': { type: 'string' },
  'reads-at-once': { type: 'string' },
  creates: { type: 'string' },
  'cpu-prof': { type: 'string' },
});
const CPU_PROF = values['cpu-prof'];
const READ_WORKERS = values['read-workers'];
const POOL_READERS = values['pool-readers'];
const READS_AT_ONCE = values['reads-at-once'];
const REPORTS = Number(values.reports ?? 1_000_000);
const CREATES = Number(values.creates ?? 5);
if (!(CREATES >= 0 && CREATES <= 100)) {
  console.error('--creates : un pourcentage entre 0 et 100.');
  process.exit(1);
}
/** The mix's label: lists, details and creates in %. */
const MIX = `${fr1((80 * (100 - CREATES)) / 95)}/${fr1((15 * (100 - CREATES)) / 95)}/${fr1(CREATES)}`;
const CONNECTIONS = Number(values.connections ?? 50);
const DURATION = Number(values.duration ?? 20);
const ENGINES =
  values.engine === 'pg' ? ['postgres'] : values.engine === 'sqlite' ? ['sqlite'] : ['sqlite', 'postgres'];
const BUNDLE = resolve(import.meta.dirname, '../dist/server/index.mjs');
const USER = { email: 'charge.bench@example.mg', password: 'Mandrosoa-7391-vohitra!' };
const PG_ADMIN = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
function fr1(n: number): string {
  return String(Math.round(n * 10) / 10);
}
const fr = (n: number, digits = 0) =>
  n.toLocaleString('fr-FR', { maximumFractionDigits: digits, minimumFractionDigits: digits });

if (!existsSync(BUNDLE)) {
  console.error('Serveur non construit : lancez « npm run build:server ».');
  process.exit(1);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

interface Sample {
  codes: string[];
  partners: string[];
}

/** The database with N reports (topped up when it holds fewer), the bench user, and codes to ask for. */
async function prepare(url: string, keyFile: string): Promise<Sample> {
  const db = openDatabase(url);
  try {
    await db.migrate();
    const { cipher } = await openDataKey(db, { DATABASE_URL: url, DATA_KEY_FILE: keyFile });
    await seed(db);
    const present = await topUpDemoReports({ db, cipher }, REPORTS, { seed: 7, where: db.engine });
    if (present < REPORTS && db.engine === 'postgres') await db.execute(sql.raw('VACUUM ANALYZE'));
    if (!(await findUserByEmail(db, USER.email))) {
      await createUser(db, {
        email: USER.email,
        nomPrenom: 'Charge Bench',
        roleCode: 'ROLE_GESTIONNAIRE',
        password: USER.password,
      });
    }
    return await sample(db);
  } finally {
    await db.close();
  }
}

async function sample(db: Database): Promise<Sample> {
  const s = db.t.signalements;
  const codes = (await db.read.select({ code: s.code }).from(s).orderBy(desc(s.id)).limit(2000)).map(
    (r) => r.code,
  );
  const partners = (
    await db.read.select({ code: db.t.partenaires.code }).from(db.t.partenaires).limit(50)
  ).map((r) => r.code);
  return { codes, partners };
}

const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
const WORDS = ['detournement', 'toliara', 'fonds', 'rison', 'marche', 'commune'];
const REGIONS = ['MG11', 'MG12', 'MG21', 'MG31', 'MG41', 'MG51'];
const SUBJECTS = ['CORRUPTION', 'DETOURNEMENT', 'ABUS_POUVOIR', 'FRAUDE', 'NEGLIGENCE'];

/**
 * One request of the mix: 80 % list with filters, 15 % detail, 5 % create by default (--creates: the
 * creates' share, lists and details keep their ratio); `kind` names it in the breakdown.
 */
function mixed(sampled: Sample): Request {
  if (Math.random() * 100 < CREATES) return create(sampled);
  const r = Math.random() * 0.95;
  if (r < 0.8) {
    const f = Math.random();
    const month = 1 + Math.floor(Math.random() * 12);
    const mm = String(month).padStart(2, '0');
    const [kind, query] =
      f < 0.2
        ? ['liste, pages 1 à 5', `page=${1 + Math.floor(Math.random() * 5)}`]
        : f < 0.35
          ? ['liste, partenaire', `partenaire.code[]=${pick(sampled.partners)}`]
          : f < 0.5
            ? ['liste, un mois', `signalementAt[after]=2025-${mm}-01&signalementAt[before]=2025-${mm}-28`]
            : f < 0.65
              ? ['liste, recherche', `search=${pick(WORDS)}`]
              : f < 0.8
                ? ['liste, région', `region.code=${pick(REGIONS)}`]
                : f < 0.9
                  ? [
                      'liste, objet et partenaire',
                      `subjects.code[]=${pick(SUBJECTS)}&partenaire.code[]=${pick(sampled.partners)}`,
                    ]
                  : ['liste, tri par code', `order[code]=desc&page=${1 + Math.floor(Math.random() * 3)}`];
    return { kind, method: 'GET', path: `/api/signalements?${query}` };
  }
  return { kind: 'détail', method: 'GET', path: `/api/signalements/${pick(sampled.codes)}` };
}

function create(sampled: Sample): Request {
  return {
    kind: 'création',
    method: 'POST',
    path: '/api/signalements',
    body: JSON.stringify({
      partenaire: `/api/partenaires/${pick(sampled.partners)}`,
      subjects: [`/api/subjects/${pick(SUBJECTS)}`],
      canalPrincipal: '/api/canals/TELEPHONE',
      signalementAt: '2025-03-10',
    }),
  };
}

interface Request {
  kind: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

interface Figures {
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Answers that were not 2xx, by status. */
  statuses: Record<string, number>;
  /** Client-observed latencies by kind of request (ms, sorted). */
  byKind: Record<string, number[]>;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function load(base: string, cookie: string, request: () => Request): Promise<Figures> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const byKind: Record<string, number[]> = {};
  const result = await new Promise<autocannon.Result>((done, fail) => {
    const instance = autocannon(
      {
        url: base,
        connections: CONNECTIONS,
        duration: DURATION,
        requests: [
          {
            setupRequest: (req, context) => {
              const next = request();
              const headers: Record<string, string> = { cookie, 'sec-fetch-site': 'same-origin' };
              if (next.body) headers['content-type'] = 'application/json';
              // One request at a time per connection: built just before it is sent.
              Object.assign(context, { kind: next.kind, sentAt: performance.now() });
              return { ...req, method: next.method, path: next.path, body: next.body, headers };
            },
            onResponse: (_status, _body, context) => {
              const { kind, sentAt } = context as { kind: string; sentAt: number };
              (byKind[kind] ??= []).push(performance.now() - sentAt);
            },
          },
        ],
      },
      (error, finished) => (error ? fail(error) : done(finished)),
    );
    instance.on('reqError', (error) => {
      const key = `erreur ${error.message}`;
      statuses[key] = (statuses[key] ?? 0) + 1;
    });
    instance.on('response', (_client, status, _bytes, responseTime) => {
      latencies.push(responseTime);
      if (status >= 300) statuses[status] = (statuses[status] ?? 0) + 1;
    });
  });
  latencies.sort((a, b) => a - b);
  for (const list of Object.values(byKind)) list.sort((a, b) => a - b);
  return {
    byKind,
    perSecond: result.requests.average,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    statuses,
  };
}

async function runServer(env: Record<string, string>): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const profile = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${resolve(CPU_PROF)}`] : [];
  const child = spawn(process.execPath, ['--enable-source-maps', ...profile, BUNDLE], {
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 300_000;
  while ((await fetch(`${base}/api/health`).catch(() => null))?.status !== 200) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('Le serveur ne démarre pas.');
    await new Promise((done) => setTimeout(done, 250));
  }
  return { base, child };
}

async function bench(engine: string) {
  let url: string;
  mkdirSync(resolve('data/bench'), { recursive: true });
  // The demo data's sources are encrypted with this key (beside the SQLite file, as the server's default).
  // One data set per size, each with the key that encrypts its sources.
  const folder = resolve(`data/bench/load-${REPORTS}`);
  mkdirSync(folder, { recursive: true });
  // PostgreSQL gets a copy of the SQLite data set (same rows, read with the same key): made once, kept.
  const keyFile = join(folder, 'data.key');
  const sqliteUrl = `file:${join(folder, 'signalements.db')}`;
  if (engine === 'sqlite' || !existsSync(join(folder, 'signalements.db'))) await prepare(sqliteUrl, keyFile);
  if (engine === 'sqlite') {
    url = sqliteUrl;
  } else {
    url = await postgresCopyOf(
      join(folder, 'signalements.db'),
      `signalements_bench_load_${REPORTS}`,
      PG_ADMIN,
      REPORTS,
    );
  }
  const sampled = await prepare(url, keyFile);
  const { base, child } = await runServer({
    DATABASE_URL: url,
    DATA_KEY_FILE: keyFile,
    ...(READ_WORKERS === undefined ? {} : { DATABASE_READ_WORKERS: READ_WORKERS }),
    ...(POOL_READERS === undefined ? {} : { DATABASE_POOL_READERS: POOL_READERS }),
    ...(READS_AT_ONCE === undefined ? {} : { READS_AT_ONCE }),
  });
  try {
    const login = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(USER),
    });
    if (login.status !== 200) throw new Error(`connexion refusée : ${login.status}`);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    // A short warm-up: statements prepared, caches filled.
    await load(base, cookie, () => mixed(sampled)).catch(() => undefined);
    const ceiling = await load(base, cookie, () => ({ kind: 'no-op', method: 'GET', path: '/api/canals' }));
    const mix = await load(base, cookie, () => mixed(sampled));
    return { engine, ceiling, mix };
  } finally {
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
  }
}

const rows: string[] = [];
const kinds: string[] = [];
const trafficCells: Cell[][] = [];
const kindCells: Cell[][] = [];
const round = (n: number) => Math.round(n);
for (const engine of ENGINES) {
  const { ceiling, mix } = await bench(engine);
  const engineName = engine === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  for (const [kind, list] of Object.entries(mix.byKind).sort()) {
    kindCells.push([
      engineName,
      kind,
      list.length,
      round(percentile(list, 50)),
      round(percentile(list, 95)),
      round(percentile(list, 99)),
    ]);
    kinds.push(
      `| ${engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'} | ${kind} | ${fr(list.length)} | ${fr(percentile(list, 50))} | ${fr(percentile(list, 95))} | ${fr(percentile(list, 99))} |`,
    );
  }
  const line = (what: string, f: Figures) =>
    `| ${engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'} | ${what} | ${fr(f.perSecond)} | ${fr(f.p50)} | ${fr(f.p95)} | ${fr(f.p99)} | ${f.errors + f.non2xx} |`;
  rows.push(line('no-op authentifié (plafond)', ceiling), line(`mélange ${MIX}`, mix));
  for (const [what, f] of [
    ['no-op (ceiling)', ceiling],
    [`mix ${MIX}`, mix],
  ] as const) {
    trafficCells.push([
      engineName,
      what,
      round(f.perSecond),
      round(f.p50),
      round(f.p95),
      round(f.p99),
      f.errors + f.non2xx,
    ]);
  }
  for (const f of [ceiling, mix])
    if (Object.keys(f.statuses).length > 0) console.warn(`Réponses non 2xx (${engine}) :`, f.statuses);
}
console.info(
  `\n${fr(REPORTS)} signalements, ${CONNECTIONS} connexions, ${DURATION} s par mesure, fils de lecture SQLite : ${READ_WORKERS ?? 'par défaut'}, lectures PostgreSQL à la fois : ${POOL_READERS ?? 'par défaut'}, lectures servies à la fois : ${READS_AT_ONCE ?? 'par défaut'}, ${new Date().toISOString()}`,
);
console.info('| moteur | trafic | req/s | p50 (ms) | p95 (ms) | p99 (ms) | erreurs |');
console.info('| --- | --- | --- | --- | --- | --- | --- |');
for (const row of rows) console.info(row);
console.info('\nLe mélange par sorte de requête (latences vues du client) :');
console.info('| moteur | requête | nombre | p50 (ms) | p95 (ms) | p99 (ms) |');
console.info('| --- | --- | --- | --- | --- | --- |');
for (const row of kinds) console.info(row);
console.info(
  `\n${writeFigures(
    measured(
      CREATES === 5 ? `load-${REPORTS}` : `load-${REPORTS}-creates-${CREATES}`,
      typedCommand('bench:load'),
      [
        {
          caption: `${REPORTS.toLocaleString('en-US')} reports, ${CONNECTIONS} connections, ${DURATION} s each, SQLite reader threads: ${READ_WORKERS ?? 'default'}, PostgreSQL reads at once: ${POOL_READERS ?? `default (${DEFAULT_POOL_READERS})`}, reads served at once: ${READS_AT_ONCE ?? `default (${DEFAULT_READS_AT_ONCE})`} (latencies in ms, seen by the client).`,
          columns: ['engine', 'traffic', 'req/s', 'p50', 'p95', 'p99', 'errors'],
          rows: trafficCells,
        },
        {
          caption: 'The mix by kind of request (same run):',
          columns: ['engine', 'request', 'count', 'p50', 'p95', 'p99'],
          rows: kindCells,
        },
      ],
    ),
  )}`,
);
