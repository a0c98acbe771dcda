// npm run bench:dashboard [-- --reports 1000000 --runs 15 --db data/bench/x.db --no-pg | --no-sqlite]
// Times the seven dashboard calls of spec §7 server-side (Fastify inject, session included) on SQLite
// with 1,000,000 demo reports, for the whole range and for one month, against the same SQL statements
// run raw on the database; then the same on PostgreSQL. Not part of `npm test`.
//
// SQLite: data/bench/dashboard-sqlite.db, filled once by the demo generator and reused (topped up when
// it holds fewer reports). PostgreSQL: a temporary database created here, filled with a copy of the
// SQLite rows the dashboard reads (same data, same ids), VACUUM ANALYZEd as autovacuum would, dropped.
// Writes the medians to docs/figures/dashboard-<N>.json (one file per size, as bench:reports does) and prints
// their Markdown for the README (npm run readme:figures).
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import Sqlite from 'better-sqlite3';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { businessCalendar, DEFAULT_BUSINESS_TIME_ZONE } from '#shared/calendar';
import { buildApp } from '#server/app';
import { loadConfig } from '#server/config';
import { createAppContext, systemClock } from '#server/context';
import type { DataCipher } from '#server/crypto/cipher';
import { openDataKey } from '#server/crypto/data-key';
import { openDatabase, type Database } from '#server/db/client';
import { seed } from '#server/db/seed/index';
import {
  keyMetrics,
  perCanal,
  perDay,
  perLocalisation,
  perNiveau,
  perResultat,
  perSubject,
} from '#server/domains/dashboard/service';
import { createUser } from '#server/domains/utilisateurs/service';
import { copyToPostgres } from './bench-dashboard-copy';
import {
  dashboardTables,
  type DashboardEngineTimes,
  type DashboardRangeTimes,
} from './bench-dashboard-figures';
import { topUpDemoReports } from './bench-data';
import { cliOptions } from './cli';
import { measured, typedCommand, writeFigures } from './figures';

const { values } = cliOptions(
  `Usage : npm run bench:dashboard -- [--reports 1000000] [--runs 15] [--db data/bench/x.db] [--no-pg | --no-sqlite]

Mesure les sept appels du tableau de bord côté serveur sur SQLite avec N signalements de démonstration,
puis sur PostgreSQL (une base temporaire remplie des mêmes lignes), face au SQL brut. Écrit les médianes
dans docs/figures/dashboard-N.json pour le README (npm run readme:figures).`,
  {
    reports: { type: 'string' },
    runs: { type: 'string' },
    'no-pg': { type: 'boolean' },
    'no-sqlite': { type: 'boolean' },
    db: { type: 'string' },
  },
);
const REPORTS = Number(values.reports ?? 1_000_000);
const RUNS = Number(values.runs ?? 15);
if (!Number.isInteger(REPORTS) || REPORTS < 1 || !Number.isInteger(RUNS) || RUNS < 1) {
  console.error('--reports et --runs : des entiers positifs sont attendus.');
  process.exit(1);
}
const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SQLITE_FILE = resolve(values.db ?? resolve(import.meta.dirname, '../data/bench/dashboard-sqlite.db'));
const BENCH_USER = { email: 'bench@signalements.example', password: 'quartz-lagune-ravinala-91' };
const fr = (n: number, digits = 0) =>
  n.toLocaleString('fr-FR', { maximumFractionDigits: digits, minimumFractionDigits: digits });

type Input = { dateStart?: string; dateEnd?: string };
// The databases are built with the default zone's offsets (business_calendar_offsets).
const calendar = businessCalendar(DEFAULT_BUSINESS_TIME_ZONE);
const ENDPOINTS: Array<{ path: string; service: (db: Database, input: Input) => Promise<unknown> }> = [
  { path: 'key-metrics', service: (db, i) => keyMetrics(db, i) },
  { path: 'count-per-localisation', service: (db, i) => perLocalisation(db, 'Region', i) },
  { path: 'count-per-canal-principal', service: (db, i) => perCanal(db, i) },
  { path: 'signalement-per-jour', service: (db, i) => perDay({ db, calendar, clock: systemClock }, i) },
  { path: 'count-per-subject', service: (db, i) => perSubject(db, i) },
  { path: 'count-per-niveau', service: (db, i) => perNiveau(db, i) },
  { path: 'count-per-resultat', service: (db, i) => perResultat(db, i) },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** The statements a service call runs, recorded by wrapping db.rows. */
async function statementsOf(db: Database, call: (db: Database) => Promise<unknown>): Promise<SQL[]> {
  const seen: SQL[] = [];
  const spy: Database = { ...db, rows: (query, tx) => (seen.push(query), db.rows(query, tx)) };
  await call(spy);
  return seen;
}

interface RawRunner {
  run(statements: SQL[]): Promise<void>;
  close(): Promise<void>;
}

async function rawRunner(db: Database, url: string): Promise<RawRunner> {
  if (db.engine === 'sqlite') {
    const conn = new Sqlite(url.replace(/^file:/, ''), { readonly: true });
    const dialect = new SQLiteSyncDialect();
    return {
      async run(statements) {
        for (const s of statements) {
          const q = dialect.sqlToQuery(s);
          conn.prepare(q.sql).all(...(q.params as unknown[]));
        }
      },
      async close() {
        conn.close();
      },
    };
  }
  const client = new pg.Client({ connectionString: url });
  // Dropping the database at the end ends this connection: not an error of the benchmark.
  client.on('error', () => undefined);
  await client.connect();
  const dialect = new PgDialect();
  return {
    async run(statements) {
      for (const s of statements) {
        const q = dialect.sqlToQuery(s);
        await client.query(q.sql, q.params as unknown[]);
      }
    },
    async close() {
      await client.end();
    },
  };
}

async function benchUserCookie(app: FastifyInstance, db: Database): Promise<string> {
  const [existing] = await db.rows<{ n: number }>(
    sql`select count(*) as n from ${db.t.utilisateurs} where ${db.t.utilisateurs.email} = ${BENCH_USER.email}`,
  );
  if (Number(existing?.n) === 0) {
    await createUser(db, {
      email: BENCH_USER.email,
      nomPrenom: 'Banc Essai',
      roleCode: 'ROLE_USER',
      password: BENCH_USER.password,
    });
  }
  const res = await app.inject({ method: 'POST', url: '/api/login', payload: BENCH_USER });
  const cookie = res.cookies.find((c) => c.name === 'session');
  if (!cookie) throw new Error(`Connexion impossible : ${res.statusCode} ${res.body}`);
  return `session=${cookie.value}`;
}

async function lastFullMonth(db: Database): Promise<Input> {
  const [row] = await db.rows<{ last: unknown }>(
    sql`select max(${db.t.signalements.signalementAt}) as last from ${db.t.signalements}`,
  );
  const last = db.dialect.date(row?.last) ?? new Date();
  const start = new Date(Date.UTC(last.getUTCFullYear(), last.getUTCMonth() - 1, 1));
  const end = new Date(Date.UTC(last.getUTCFullYear(), last.getUTCMonth(), 0));
  return { dateStart: start.toISOString().slice(0, 10), dateEnd: end.toISOString().slice(0, 10) };
}

async function measure(
  label: string,
  db: Database,
  url: string,
  cipher: DataCipher | null = null,
): Promise<DashboardRangeTimes[]> {
  const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent' });
  const app = await buildApp({ ctx: createAppContext(config, { db, cipher }) });
  await app.ready();
  const cookie = await benchUserCookie(app, db);
  const raw = await rawRunner(db, url);
  const month = await lastFullMonth(db);
  const measuredRanges: DashboardRangeTimes[] = [];
  const scenarios: Array<[string, Input]> = [
    ['plage entière', {}],
    [`un mois (${month.dateStart} → ${month.dateEnd})`, month],
  ];
  console.info(
    `\n${label} — médianes sur ${RUNS} passages (ms), appel HTTP côté serveur vs SQL brut des mêmes requêtes`,
  );
  try {
    for (const [name, input] of scenarios) {
      const query = new URLSearchParams(input as Record<string, string>).toString();
      const calls = ENDPOINTS.map((e) => ({
        ...e,
        url: `/api/dashboard/${e.path}${e.path === 'count-per-localisation' ? '?type=Region' : ''}`,
      })).map((e) => ({ ...e, url: query ? `${e.url}${e.url.includes('?') ? '&' : '?'}${query}` : e.url }));
      const statements = await Promise.all(
        ENDPOINTS.map((e) => statementsOf(db, (spy) => e.service(spy, input))),
      );
      const http = calls.map(() => [] as number[]);
      const rawTimes = calls.map(() => [] as number[]);
      const totals: number[] = [];
      for (let run = -2; run < RUNS; run++) {
        let total = 0;
        for (let i = 0; i < calls.length; i++) {
          const ms = await time(async () => {
            const res = await app.inject({ url: calls[i]!.url, headers: { cookie } });
            if (res.statusCode !== 200) throw new Error(`${calls[i]!.url} : ${res.statusCode} ${res.body}`);
          });
          total += ms;
          const rawMs = await time(() => raw.run(statements[i]!));
          if (run >= 0) {
            http[i]!.push(ms);
            rawTimes[i]!.push(rawMs);
          }
        }
        if (run >= 0) totals.push(total);
      }
      console.info(`\n  ${name}`);
      console.info(
        `  ${'appel'.padEnd(28)}${'HTTP'.padStart(9)}${'SQL brut'.padStart(10)}${'ratio'.padStart(8)}`,
      );
      calls.forEach((c, i) => {
        const [h, s] = [median(http[i]!), median(rawTimes[i]!)];
        console.info(
          `  ${c.path.padEnd(28)}${fr(h, 1).padStart(9)}${fr(s, 1).padStart(10)}${fr(h / s, 2).padStart(8)}`,
        );
      });
      const rawSum = rawTimes.reduce((sum, xs) => sum + median(xs), 0);
      console.info(
        `  ${'les 7 appels ensemble'.padEnd(28)}${fr(median(totals), 1).padStart(9)}${fr(rawSum, 1).padStart(10)}${fr(median(totals) / rawSum, 2).padStart(8)}`,
      );
      measuredRanges.push({
        range: input,
        calls: calls.map((c, i) => ({ path: c.path, endpoint: median(http[i]!), raw: median(rawTimes[i]!) })),
        together: { endpoint: median(totals), raw: rawSum },
      });
    }
    return measuredRanges;
  } finally {
    await raw.close();
    await app.close();
  }
}

async function sqliteBench(): Promise<DashboardEngineTimes> {
  mkdirSync(resolve(SQLITE_FILE, '..'), { recursive: true });
  const url = `file:${SQLITE_FILE}`;
  const db = openDatabase(url);
  try {
    await db.migrate();
    // The demo generator writes sources encrypted: the bench database keeps its key file beside it.
    const { cipher } = await openDataKey(db, { DATABASE_URL: url });
    await seed(db);
    const present = await topUpDemoReports({ db, cipher }, REPORTS, {
      seed: 1,
      where: `SQLite, ${SQLITE_FILE}`,
    });
    const reports = Math.max(present, REPORTS);
    const ranges = await measure(`SQLite (${fr(reports)} signalements)`, db, url, cipher);
    return { engine: 'SQLite', reports, ranges };
  } finally {
    await db.close();
  }
}

async function postgresBench(): Promise<DashboardEngineTimes> {
  const name = `dashboard_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  const db = openDatabase(url.toString());
  try {
    await db.migrate();
    console.info(`\nPostgreSQL : copie des données SQLite dans la base temporaire ${name}…`);
    const started = performance.now();
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      await copyToPostgres(SQLITE_FILE, client);
      await client.query('vacuum analyze');
    } finally {
      await client.end();
    }
    console.info(`  copie et VACUUM ANALYZE : ${fr((performance.now() - started) / 1000)} s`);
    const [row] = await db.rows<{ n: number }>(sql`select count(*) as n from ${db.t.signalements}`);
    const ranges = await measure('PostgreSQL (mêmes données)', db, url.toString());
    return { engine: 'PostgreSQL', reports: Number(row?.n ?? 0), ranges };
  } finally {
    await db.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

try {
  const engines: DashboardEngineTimes[] = [];
  if (!values['no-sqlite']) engines.push(await sqliteBench());
  if (!values['no-pg']) engines.push(await postgresBench());
  const command = typedCommand('bench:dashboard');
  if (engines.length > 0)
    console.info(
      `\n${writeFigures(measured(`dashboard-${REPORTS}`, command, dashboardTables(engines, RUNS)))}`,
    );
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
