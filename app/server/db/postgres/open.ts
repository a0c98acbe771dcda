// PostgreSQL's opening (server/db/client.ts, openDatabase): one pool whose every client has an error
// listener for its whole life, the pool's transactions, the migrations and the start-up lock on connections
// of their own (docs/decisions/0001-two-engines.md, 0019). Every other PostgreSQL difference: ./dialect.ts.
import { availableParallelism } from 'node:os';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as pgSchema from '#drizzle/schema/pg';
import { PATHS } from '#server/paths';
import type { Database, DatabaseOptions, Orm, Schema } from '../client';
import { preparedRunner, valuesRunner } from '../prepared';
import { joiningTransaction, TransactionScope } from '../transaction-scope';
import { postgresDialect } from './dialect';
import { PriorityPool } from './priority-pool';
import { serializeQueries } from './serial-queries';

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** The advisory lock of start-ups (space, id); the space is apart from those of server/db/locks.ts. */
export const STARTUP_LOCK = [8100, 1] as const;
/**
 * Connections of the pool, and how many of them reads may hold at once: the rest only requests that may
 * write use (decisions 0054 and 0055). Reads get one per core of this machine and one more, at least the
 * widest wave of one read request (a report's four loader statements side by side) and at most eight (two
 * always kept for writes): on a machine that runs PostgreSQL beside the server, more reads at once only
 * queue for the same cores in front of every write. DATABASE_POOL_READERS sets it (PostgreSQL on a
 * machine of its own, with more cores).
 */
export const POOL_SIZE = 10;
export const MAX_POOL_READERS = POOL_SIZE - 2;
export const WIDEST_READ_WAVE = 4;
export const DEFAULT_POOL_READERS = Math.min(
  MAX_POOL_READERS,
  Math.max(WIDEST_READ_WAVE, availableParallelism() + 1),
);

/** pg's value parsers, but timestamps and dates left as PostgreSQL's text (preparedValues). */
const TEXT_TIMESTAMPS = {
  getTypeParser: ((typeId: number, format?: 'text' | 'binary') =>
    typeId === pg.types.builtins.TIMESTAMPTZ ||
    typeId === pg.types.builtins.TIMESTAMP ||
    typeId === pg.types.builtins.DATE
      ? (value: string) => value
      : pg.types.getTypeParser(typeId, format)) as typeof pg.types.getTypeParser,
};

export function openPostgres(url: string, options: DatabaseOptions): Omit<Database, 'writes'> {
  const connectionTimeoutMillis = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const statement = options.statementTimeoutMs;
  // Requests that may write are handed connections first (server/db/lanes.ts, ./priority-pool.ts).
  const pool = new PriorityPool(
    {
      connectionString: url,
      max: POOL_SIZE,
      // Idle connections stay open a minute (pg-pool's default is 10 s): a new one costs a server process,
      // its catalog caches and every prepared statement again on the next request (decision 0030).
      idleTimeoutMillis: 60_000,
      connectionTimeoutMillis,
      // Dead peers are noticed by TCP keep-alive rather than by a query that waits forever.
      keepAlive: true,
      ...(statement
        ? {
            // The server cancels a statement past the limit; the client gives up a little later if the server
            // itself stopped answering.
            statement_timeout: statement,
            query_timeout: statement + 5000,
            idle_in_transaction_session_timeout: statement * 2,
          }
        : {}),
      options: [
        // The planner's cost of a page read out of order, as PostgreSQL's documentation suggests for storage
        // whose random reads cost about as much as sequential ones (SSDs, a database held in memory); the
        // default (4) models spinning disks and made the list's rows hash whole reference tables (1,579
        // communes) for a page of 20 reports instead of reading them by key (decision 0030).
        '-c random_page_cost=1.1',
        // No parallel workers for one statement: the pool's connections serve requests side by side, and a
        // parallel plan takes two more server processes for one of them. It also misleads the planner: a
        // partner and a subject were counted by a parallel hash of the partner's 94,000 reports (90 ms at
        // 1,000,000 reports on 2 cores) instead of reading the partner's index until the cap (8 ms;
        // decision 0060).
        '-c max_parallel_workers_per_gather=0',
        // Read-only: every transaction of this pool's connections refuses writes.
        ...(options.readOnly ? ['-c default_transaction_read_only=on'] : []),
      ].join(' '),
    },
    POOL_SIZE - Math.min(MAX_POOL_READERS, Math.max(1, options.poolReaders ?? DEFAULT_POOL_READERS)),
  );
  let closing = false;
  // A lost connection (pg_terminate_backend, a PostgreSQL restart) must never crash the process. pg-pool
  // listens for an idle client's 'error' only while the client is idle, and a client with no 'error'
  // listener throws: so every client gets one for its whole life. The request using it fails (its query
  // rejects, and the next one on that client too), is answered 503 (server/db/connection-lost.ts), and the
  // pool drops the client on release and opens a new one for the next request.
  const lost = (error: Error) => {
    if (!closing) console.error(`PostgreSQL : connexion perdue (${error.message})`);
  };
  pool.on('connect', (client) => {
    client.on('error', lost);
    serializeQueries(client);
  });
  // The pool's own event for an idle client: already logged by the client's listener.
  pool.on('error', () => undefined);
  /** A connection outside the pool; a loss fails its query instead of crashing the process. */
  const ownClient = () => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis, keepAlive: true });
    client.on('error', lost);
    return client;
  };
  const orm = drizzlePg(pool, { schema: pgSchema });
  const read = orm as unknown as Orm;
  const scope = new TransactionScope();

  return {
    engine: 'postgres',
    dialect: postgresDialect,
    readThreads: 0,
    readsAside: true,
    url,
    t: pgSchema as unknown as Schema,
    get read() {
      return scope.current() ?? read;
    },
    async transaction(fn) {
      const outer = scope.current();
      if (outer) return fn(outer);
      return scope.outermost((body) => orm.transaction((tx) => body(tx as unknown as Orm)), fn);
    },
    inTransaction: () => scope.current() !== undefined,
    afterCommit: (work) => scope.afterCommit(work),
    prepared: joiningTransaction(scope, preparedRunner(read)),
    // Named, so each connection of the pool prepares it once. pg's parsers decode the values (a string for a
    // bigint, the parsed jsonb) but timestamps, left as PostgreSQL's text as drizzle leaves them (pg's own
    // parser of a timestamp cost a row about as much as the rest: decision 0050); the dialect's date reads it.
    preparedValues: valuesRunner(read, scope, async (name, text, params) => {
      const result = await pool.query({
        name,
        text,
        values: params,
        rowMode: 'array',
        types: TEXT_TIMESTAMPS,
      });
      return result.rows as unknown[][];
    }),
    async rows<T>(query: SQL, tx?: Orm) {
      const runner = (tx ?? scope.current() ?? read) as unknown as typeof orm;
      const result = await runner.execute(query);
      return result.rows as T[];
    },
    async execute(query: SQL) {
      // Inside a transaction, on its connection.
      await ((scope.current() ?? read) as unknown as typeof orm).execute(query);
    },
    async migrate() {
      // On a connection of its own, without the serving pool's statement limit: a migration may rewrite
      // every report.
      const client = ownClient();
      await client.connect();
      try {
        await migratePg(drizzlePg(client), { migrationsFolder: PATHS.migrations.postgres });
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    async exclusively(fn) {
      // A connection of its own holds the lock (the pool's could be reused meanwhile).
      const client = ownClient();
      await client.connect();
      try {
        await client.query('select pg_advisory_lock($1::int, $2::int)', [STARTUP_LOCK[0], STARTUP_LOCK[1]]);
        return await fn();
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    async ping() {
      await pool.query('select 1');
    },
    stats() {
      return { connections: pool.totalCount, idle: pool.idleCount, waiting: pool.waiting() };
    },
    async close() {
      closing = true;
      await pool.end();
    },
  };
}
