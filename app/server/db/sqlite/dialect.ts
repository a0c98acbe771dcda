import { dirname, join, resolve } from 'node:path';
import { getTableColumns, sql } from 'drizzle-orm';
import type { Dialect } from '../dialect';
import { daysBetween, listedBuckets, timestampParam } from '../dates';
import { decodeCount, decodeDate, decodeFlag, decodeNumber } from '../decode';
import { errorCodes } from '../error-codes';
import { claimPidFile, releasePidFile, runningServerPid, sqliteFile } from './pid-file';

/** SQLite's answers to the Dialect (server/db/dialect.ts). */
export const sqliteDialect: Dialect = {
  engine: 'sqlite',
  timestamp: (at) => timestampParam('sqlite', at),
  daysBetween: (from, to) => daysBetween('sqlite', from, to),
  listedBuckets: (buckets) => listedBuckets('sqlite', buckets),
  dayRange: (first, last) =>
    sql`(with recursive g(day) as (select ${first} union all select day + 1 from g where day < ${last}) select day from g)`,
  dayKey: (day) => sql`date(${day} * 86400, 'unixepoch')`,
  idList: (column, ids) => sql`${column} in (select value from json_each(${JSON.stringify(ids)}))`,
  idListPlaceholder: (column, name) =>
    sql`${column} in (select value from json_each(${sql.placeholder(name)}))`,
  inFewIds: (column, ids) => sql`${column} in (${ids})`,
  orderedIntegers: (column, order) =>
    sql`json_group_array(${column} order by ${sql.join([...order], sql`, `)})`.mapWith(
      (text: string) => JSON.parse(text) as number[],
    ),
  jsonArrays: (values, order) =>
    sql`json_group_array(json_array(${sql.join([...values], sql`, `)}) order by ${sql.join([...order], sql`, `)})`.mapWith(
      (text: string) => JSON.parse(text) as unknown[][],
    ),
  pageInOneStatement: false,
  idListValue: (ids) => JSON.stringify(ids),

  lockingRows: (select) => select,
  transactionLock: () => null,

  /** SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY. */
  isUniqueViolation: (error) =>
    errorCodes(error).some((c) => c === 'SQLITE_CONSTRAINT_UNIQUE' || c === 'SQLITE_CONSTRAINT_PRIMARYKEY'),
  isForeignKeyViolation: (error) => errorCodes(error).includes('SQLITE_CONSTRAINT_FOREIGNKEY'),

  searchIndexes: true,
  rowJson: (table) =>
    sql`json_array(${sql.join(
      Object.values(getTableColumns(table)).map((column) => sql.identifier(column.name)),
      sql`, `,
    )})`,
  containsSequentially: (column, word) => sql`${column} like ${`%${word}%`}`,
  searchTexts: null,
  subjectSetCount: (subjectIds) => {
    const holds = subjectIds.map((id) => sql`(',' || subjects || ',') like ${`%,${id},%`}`);
    return sql`select coalesce(sum(n), 0) as n from signalement_subject_sets where ${sql.join(holds, sql` or `)}`;
  },
  /**
   * SQLite keeps every token ever indexed in search_terms, and the FTS5 indexes keep deleted entries in
   * old segments until merged: both are rebuilt from the search texts as they are now (secure_delete, set
   * on the writer connection, zeroes the freed pages).
   */
  async purgeSearchIndexes(tx) {
    // These statements return no rows, so they run on the writer connection directly.
    for (const statement of [
      sql`delete from search_terms`,
      sql`insert into signalements_fts(signalements_fts) values ('rebuild')`,
      sql`insert into signalements_words(signalements_words) values ('rebuild')`,
      sql`insert into search_terms(term) select term from signalements_words_vocab`,
      sql`insert into search_terms_fts(search_terms_fts) values ('rebuild')`,
    ]) {
      tx.run(statement);
    }
  },
  async purgeLog(db) {
    // The old values may still sit in the WAL: copy it into the (securely rewritten) file, empty it.
    await db.execute(sql`PRAGMA wal_checkpoint(TRUNCATE)`);
  },

  count: decodeCount,
  number: decodeNumber,
  date: decodeDate,
  flag: decodeFlag,
  json: (value) => (value === null || value === undefined ? null : JSON.parse(String(value))),

  defaultKeyFile: (url) => join(dirname(resolve(url.replace(/^file:/, ''))), 'data.key'),
  describeTarget: (url) => `le fichier SQLite ${resolve(url.replace(/^file:/, ''))}`,
  claimServer: (url) => claimPidFile(url),
  releaseServer: (url) => releasePidFile(url),
  async liveUse(db) {
    const pid = runningServerPid(db.url);
    return pid === null ? null : { kind: 'process', pid, file: sqliteFile(db.url) };
  },
};
