import type { AnyColumn, SQL, Table } from 'drizzle-orm';
import { isPostgresUrl, type Database, type Engine, type Orm } from './client';
import type { Bucket } from './dates';
import { postgresDialect } from './postgres/dialect';
import { sqliteDialect } from './sqlite/dialect';

/**
 * Everything that differs between SQLite and PostgreSQL and is needed outside server/db
 * (docs/decisions/0025-dialects.md). Domains, crypto/, start.ts and startup-errors.ts ask `db.dialect`
 * (or `dialectFor(url)` before a database is open) and never test the engine themselves. Each engine has
 * one implementation: server/db/sqlite/dialect.ts and server/db/postgres/dialect.ts.
 */
export interface Dialect {
  readonly engine: Engine;

  // Timestamps and days. SQLite stores timestamps as integer milliseconds since the epoch, PostgreSQL as
  // timestamptz; calendar days are held as epoch-day numbers (days since 1970-01-01).

  /** A timestamp parameter in the engine's storage type, comparable with a timestamp column. */
  timestamp(at: Date): SQL;
  /** Days (fractional) from one timestamp to another. */
  daysBetween(from: AnyColumn | SQL, to: AnyColumn | SQL): SQL<number>;
  /** A derived table `(day, lo, hi)` of a few irregular buckets (weeks, months, years) given by the caller. */
  listedBuckets(buckets: readonly Bucket[]): SQL;
  /** A derived table of one column `day`: every epoch day from `first` to `last`, inclusive. */
  dayRange(first: number, last: number): SQL;
  /** An epoch-day number as its calendar date, 'yyyy-MM-dd'. */
  dayKey(day: SQL | AnyColumn): SQL;

  /**
   * `column IN ids` with the list as one parameter, whatever its length (none included): the statement's
   * text, and so its plan, are the same whether the list is empty or not.
   */
  idList(column: SQL | AnyColumn, ids: readonly number[]): SQL;
  /** The same with the list as the placeholder `name` of a prepared statement (server/db/prepared.ts). */
  idListPlaceholder(column: SQL | AnyColumn, name: string): SQL;
  /** The value of an idListPlaceholder: a JSON array read by json_each (SQLite), an integer array (PostgreSQL). */
  idListValue(ids: readonly number[]): unknown;
  /**
   * `column IN` the ids a sub-select answers (a few: a page), planned as a list of a few values on both
   * engines: PostgreSQL reads the sub-select first, as an array (`= any(array(…))`), instead of joining it
   * to the whole table when its estimate is off (docs/decisions/0063); SQLite's IN (sub-select) already does.
   */
  inFewIds(column: SQL | AnyColumn, ids: SQL): SQL;
  /**
   * The integers of `column` over the selected rows as one value, in the order of `order` (every row,
   * none: []): one JSON text aggregated by the engine (json_group_array, json_agg) instead of a row each,
   * so a long list (an export's ids) costs the serving thread one string to parse, not a row object per id.
   */
  orderedIntegers(column: SQL | AnyColumn, order: readonly SQL[]): SQL<number[]>;
  /**
   * The selected rows as one value: a JSON array per row of `values`, in the order of `order` (none: []),
   * aggregated by the engine (json_agg, json_group_array). Each value as JSON writes it: a timestamp as
   * PostgreSQL's text with its offset or SQLite's milliseconds, a flag as true/false or 1/0 (read them back
   * with `date` and `flag`).
   */
  jsonArrays(values: ReadonlyArray<SQL | AnyColumn>, order: readonly SQL[]): SQL<unknown[][]>;
  /**
   * Whether a page of the report list is read as one statement of JSON arrays (jsonArrays) rather than three
   * statements of rows (server/domains/signalements/list-row.ts, docs/decisions/0065). PostgreSQL: yes,
   * each statement costs a round trip, a system call and the driver's parsing of its rows; SQLite: no, a
   * statement costs nothing more there, and its JSON functions cost more than the rows they replace.
   */
  readonly pageInOneStatement: boolean;

  // Locks.

  /**
   * A select whose rows stay locked until the transaction ends (PostgreSQL `for update`); unchanged on
   * SQLite, whose writing transactions already run one at a time.
   */
  lockingRows(select: SQL): SQL;
  /**
   * The statement that takes a transaction-scoped advisory lock on (space, id), or null where writing
   * transactions are serialised already (SQLite). Used through server/db/locks.ts.
   */
  transactionLock(space: number, id: number): SQL | null;

  // Constraint violations: the rare race a service's own check cannot see (two transactions inserting the
  // same e-mail or code at once on PostgreSQL). Drizzle wraps the driver's error; the code is down `cause`.

  isUniqueViolation(error: unknown): boolean;
  isForeignKeyViolation(error: unknown): boolean;

  // The report search (server/db/search.ts).

  /**
   * Whether the report search goes through the FTS5 indexes (the word index with its search_terms list,
   * the trigram index) that planSearch and countSearchInIndex read: SQLite. PostgreSQL matches every word
   * with LIKE, served by pg_trgm.
   */
  readonly searchIndexes: boolean;
  /**
   * Every column of a row of `table` as one JSON text, for comparing whole rows (the write fuzz's snapshot of
   * every table, server/http/write-routes.fuzz.checks.ts): PostgreSQL's row_to_json, SQLite's json_array.
   */
  rowJson(table: Table): SQL;
  /**
   * Whether the search text holds `word` (lower-case, without LIKE wildcards: searchWords), as a scan that
   * stops at a cap should test it (decision 0062): PostgreSQL's `strpos`, a function no trigram index
   * serves (the planner keeps the bitmap of every match out) and about a quarter cheaper a row than
   * LIKE '%word%'; SQLite's LIKE.
   */
  containsSequentially(column: SQL | AnyColumn, word: string): SQL;
  /**
   * The narrow copy of the search texts, one row per report (`id`, `text`), that a bounded count of common
   * words scans instead of the reports' table (PostgreSQL, migration 0029, decision 0064); null on SQLite,
   * whose FTS5 indexes count.
   */
  readonly searchTexts: { table: SQL; id: SQL; text: SQL } | null;
  /**
   * The count of reports holding any of these subjects from the table of subject sets (migration 0006,
   * SQLite only; a report counts once, in the row of its set), or null where that table does not exist.
   */
  readonly subjectSetCount: ((subjectIds: readonly number[]) => SQL) | null;
  /**
   * After text was removed (sources encrypted in place): rebuilds what still holds deleted words, in the
   * transaction that removed them. SQLite: search_terms and the FTS5 indexes; PostgreSQL: nothing.
   */
  purgeSearchIndexes(tx: Orm): Promise<void>;
  /** After that transaction: empties the write-ahead log of the old values (SQLite checkpoint); PostgreSQL: nothing. */
  purgeLog(db: Database): Promise<void>;

  // Decoding raw rows (db.rows): the engines return counts and timestamps in different forms.

  /** A count or sum (PostgreSQL returns bigint and numeric as strings); null and undefined are 0. */
  count(value: unknown): number;
  /** A number that may be missing (an average, a coordinate): null stays null. */
  number(value: unknown): number | null;
  /** A timestamp as the engine returns it from raw SQL: milliseconds (SQLite) or a Date (PostgreSQL). */
  date(value: unknown): Date | null;
  /** A boolean column as the engine returns it: 0 or 1 (SQLite), a boolean (PostgreSQL). */
  flag(value: unknown): boolean;
  /** A JSON column (a list of strings…): its text (SQLite) or the value the driver parsed (PostgreSQL jsonb). */
  json(value: unknown): unknown;

  // The process and the files around the database.

  /** The data key file when DATA_KEY_FILE is unset: beside the SQLite file, or data/data.key in the project. */
  defaultKeyFile(url: string): string;
  /** How a start-up error names the database: its file, or « base » sur host:port without the password. */
  describeTarget(url: string): string;
  /**
   * Marks the database as served by this process (SQLite's pid file: db:restore and db:rotate-key refuse
   * meanwhile, another server refuses to start); nothing on PostgreSQL, served by many processes.
   */
  claimServer(url: string): void;
  /** Undoes claimServer (only this process's own claim). */
  releaseServer(url: string): void;
  /**
   * Who else uses the database, as far as the engine can tell: SQLite, the live server named in the pid
   * file; PostgreSQL, the other client connections (save holders of the start-up lock's second key) and
   * whether the heartbeat table exists. null: nobody.
   */
  liveUse(db: Database): Promise<LiveUse | null>;
}

export type LiveUse =
  | { kind: 'process'; pid: number; file: string }
  | { kind: 'connections'; database: string; connections: number; heartbeats: boolean };

/** The dialect of a DATABASE_URL, for callers that have no open database (start-up errors, the key file). */
export function dialectFor(url: string): Dialect {
  return isPostgresUrl(url) ? postgresDialect : sqliteDialect;
}
