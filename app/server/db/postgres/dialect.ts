import { join } from 'node:path';
import { getTableName, sql } from 'drizzle-orm';
import { HOME } from '#server/paths';
import { STARTUP_LOCK } from './open';
import type { Dialect } from '../dialect';
import { daysBetween, listedBuckets, timestampParam } from '../dates';
import { decodeCount, decodeDate, decodeFlag, decodeNumber } from '../decode';
import { errorCodes } from '../error-codes';

/** PostgreSQL's answers to the Dialect (server/db/dialect.ts). */
export const postgresDialect: Dialect = {
  engine: 'postgres',
  timestamp: (at) => timestampParam('postgres', at),
  daysBetween: (from, to) => daysBetween('postgres', from, to),
  listedBuckets: (buckets) => listedBuckets('postgres', buckets),
  dayRange: (first, last) =>
    sql`(select cast(g as integer) as day from generate_series(cast(${first} as integer), cast(${last} as integer)) as g)`,
  dayKey: (day) => sql`to_char(date '1970-01-01' + ${day}, 'YYYY-MM-DD')`,
  // Read as `= ANY` on the column's index (a BitmapOr beside the trigram index).
  idList: (column, ids) => sql`${column} = any(${`{${ids.join(',')}}`}::integer[])`,
  idListPlaceholder: (column, name) => sql`${column} = any(${sql.placeholder(name)}::integer[])`,
  inFewIds: (column, ids) => sql`${column} = any(array(${ids}))`,
  orderedIntegers: (column, order) =>
    sql`coalesce(json_agg(${column} order by ${sql.join([...order], sql`, `)}), '[]')::text`.mapWith(
      (text: string) => JSON.parse(text) as number[],
    ),
  jsonArrays: (values, order) =>
    sql`coalesce(json_agg(json_build_array(${sql.join([...values], sql`, `)}) order by ${sql.join([...order], sql`, `)}), '[]')::text`.mapWith(
      (text: string) => JSON.parse(text) as unknown[][],
    ),
  pageInOneStatement: true,
  idListValue: (ids) => ids,

  lockingRows: (select) => sql`${select} for update`,
  // Blocks no row; released at COMMIT or ROLLBACK.
  transactionLock: (space, id) => sql`select pg_advisory_xact_lock(${space}::int, ${id}::int)`,

  /** 23505. */
  isUniqueViolation: (error) => errorCodes(error).includes('23505'),
  /** 23503. */
  isForeignKeyViolation: (error) => errorCodes(error).includes('23503'),

  searchIndexes: false,
  rowJson: (table) => sql`row_to_json(${sql.identifier(getTableName(table))})::text`,
  // Byte for byte (COLLATE "C"): the words and the search text are folded alike (normalizeSearch).
  containsSequentially: (column, word) => sql`strpos(${column} collate "C", ${word}) > 0`,
  searchTexts: {
    table: sql`"signalement_search_texts"`,
    id: sql`"signalement_search_texts"."id"`,
    text: sql`"signalement_search_texts"."search_text"`,
  },
  subjectSetCount: null,
  async purgeSearchIndexes() {},
  async purgeLog() {},

  count: decodeCount,
  number: decodeNumber,
  date: decodeDate,
  flag: decodeFlag,
  json: (value) => value ?? null,

  // From the project's folder, not the current one: the server and every command find the same file.
  defaultKeyFile: () => join(HOME, 'data', 'data.key'),
  /** postgres://user:secret@host:port/db → « db » sur host:port (never the password). */
  describeTarget(url) {
    try {
      const parsed = new URL(url);
      const db = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || parsed.username || 'postgres';
      return `la base PostgreSQL « ${db} » sur ${parsed.hostname || 'localhost'}:${parsed.port || '5432'}`;
    } catch {
      return 'la base PostgreSQL';
    }
  },
  claimServer() {},
  releaseServer() {},
  async liveUse(db) {
    const [row] = await db.rows<{ name: string; n: number; beats: boolean }>(sql`
      select current_database() as name, count(*)::int as n, to_regclass('mail_workers') is not null as beats
      from pg_stat_activity a
      where a.datname = current_database() and a.pid <> pg_backend_pid() and a.backend_type = 'client backend'
        and not exists (select 1 from pg_locks l where l.pid = a.pid and l.locktype = 'advisory' and l.granted
          and l.classid = ${STARTUP_LOCK[0]} and l.objid = ${STARTUP_LOCK[1]} and l.objsubid = 2)`);
    return row
      ? { kind: 'connections', database: row.name, connections: row.n, heartbeats: row.beats }
      : null;
  },
};
