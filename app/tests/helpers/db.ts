import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '#server/config';
import { createAppContext, type AppContext } from '#server/context';
import { createCipher, generateDataKey, type DataCipher } from '#server/crypto/cipher';
import { openDatabase, type Database, type Engine } from '#server/db/client';

export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

let pgAvailable: boolean | undefined;

/** Whether PostgreSQL answers; under CI its absence is a failure, elsewhere a visible warning. */
export async function postgresAvailable(): Promise<boolean> {
  if (pgAvailable !== undefined) return pgAvailable;
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    pgAvailable = true;
  } catch (error) {
    if (process.env.CI) {
      throw new Error(`PostgreSQL injoignable sous CI (${PG_ADMIN_URL}) : ${String(error)}`, {
        cause: error,
      });
    }
    console.warn(`\n⚠️  PostgreSQL injoignable (${PG_ADMIN_URL}) : tests PostgreSQL ignorés.\n`);
    pgAvailable = false;
  } finally {
    await client.end().catch(() => undefined);
  }
  return pgAvailable;
}

/** Engines to run a suite against: SQLite always, PostgreSQL when reachable (always under CI). */
export const ENGINES: Engine[] = ['sqlite', 'postgres'];

export interface TestDatabase {
  db: Database;
  url: string;
  /** The data key of `db` (no verifier row is written: the server start writes it). */
  dataKey: Buffer;
  /** The cipher of `dataKey`. */
  cipher: DataCipher;
  /** A context on `db` with the default configuration and `cipher`, without task threads. */
  ctx: AppContext;
  drop(): Promise<void>;
}

/** A fresh, migrated database of the given engine, dropped by drop(). */
export async function createTestDatabase(engine: Engine): Promise<TestDatabase> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'signalements-test-'));
    const url = `file:${join(dir, 'test.db')}`;
    const db = openDatabase(url);
    await db.migrate();
    const dataKey = generateDataKey();
    const cipher = createCipher(dataKey);
    return {
      db,
      url,
      dataKey,
      cipher,
      ctx: testContext(db, url, cipher),
      async drop() {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `signalements_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  const db = openDatabase(url.toString());
  await db.migrate();
  // Each test database gets its own data key (server start loads it with openDataKey).
  const dataKey = generateDataKey();
  const cipher = createCipher(dataKey);
  return {
    db,
    url: url.toString(),
    dataKey,
    cipher,
    ctx: testContext(db, url.toString(), cipher),
    async drop() {
      await db.close();
      const client = new pg.Client({ connectionString: PG_ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

function testContext(db: Database, url: string, cipher: DataCipher): AppContext {
  return createAppContext(loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: url }), { db, cipher });
}

/**
 * The engines a suite runs on, for `describe.each(await testEngines())`: PostgreSQL is dropped with
 * a warning when unreachable outside CI, and its absence fails the run under CI.
 */
export async function testEngines(): Promise<Engine[]> {
  return (await postgresAvailable()) ? ENGINES : ['sqlite'];
}

/**
 * Drops these databases and those a restore made of them (server/ops/restore-postgres.ts: `<name>_restauration_<date>`
 * and `<name>_avant_restauration_<date>`, whose `<name>` PostgreSQL's 63 bytes may have shortened): what a
 * backup or restore test leaves in the cluster.
 */
export async function dropWithRestoreCopies(databases: string[]): Promise<void> {
  if (databases.length === 0) return;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>('select datname from pg_database');
    const copyOf = (datname: string, database: string) => {
      const cut = /^(.+?)_(?:avant_)?restauration_\d{14}$/.exec(datname)?.[1];
      return cut !== undefined && database.startsWith(cut);
    };
    const names = rows
      .map((r) => r.datname)
      .filter((n) => databases.includes(n) || databases.some((d) => copyOf(n, d)));
    for (const name of names)
      await admin.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
  } finally {
    await admin.end();
  }
}
