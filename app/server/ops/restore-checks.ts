// What a restore checks before it replaces anything (docs/decisions/0017, "Backups"): the row count of
// every table against the counts the backup recorded from the same snapshot, the data key against the
// database's verifier (and the internal notes' texts), and the schema — tables, columns, indexes, constraints, triggers, functions —
// against a scratch database migrated from this version's own migrations. Each listing is a set of
// lines, so a difference names the object that differs.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { createCipher } from '../crypto/cipher';
import { keyMatches } from '../crypto/data-key';
import { NOTE_TEXT } from '../crypto/notes';
import { openDatabase } from '../db/client';

export type Counts = Record<string, number>;

/** The schemas that hold the application's objects and drizzle's journal on PostgreSQL. */
const PG_SCHEMAS = "('public', 'drizzle')";

/** Rows of a raw better-sqlite3 statement (the checks read files that no Database has open). */
const sqliteRows = <T>(conn: Sqlite.Database, text: string, ...params: unknown[]): T[] =>
  conn.prepare(text).all(...params) as T[];

export function sqliteCounts(conn: Sqlite.Database): Counts {
  const tables = sqliteRows<{ name: string }>(
    conn,
    "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name",
  );
  const counts: Counts = {};
  for (const { name } of tables) {
    counts[name] = sqliteRows<{ n: number }>(
      conn,
      `select count(*) as n from "${name.replace(/"/g, '""')}"`,
    )[0]!.n;
  }
  return counts;
}

export async function pgCounts(client: pg.ClientBase): Promise<Counts> {
  const tables = await client.query<{ name: string }>(
    `select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname in ${PG_SCHEMAS} and c.relkind in ('r', 'p') order by 1`,
  );
  const counts: Counts = {};
  for (const { name } of tables.rows) {
    counts[name] = Number(
      (await client.query<{ n: string }>(`select count(*) as n from ${name}`)).rows[0]!.n,
    );
  }
  return counts;
}

/** The first difference between the recorded and the restored counts, in French; null when equal. */
export function countsDiffer(expected: Counts, actual: Counts): string | null {
  for (const name of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
    if (expected[name] !== actual[name]) {
      return `table ${name} : ${expected[name] ?? 'absente'} ligne(s) sauvegardée(s), ${actual[name] ?? 'absente'} restaurée(s)`;
    }
  }
  return null;
}

/** Whether the key opens the verifier (a database never started has none: nothing to check). */
export function keyOpens(key: Buffer, verifier: string | null): boolean {
  return verifier === null || keyMatches(createCipher(key), verifier);
}

export function sqliteVerifier(conn: Sqlite.Database): string | null {
  return (
    sqliteRows<{ verifier: string }>(conn, 'select verifier from data_key_check order by id limit 1')[0]
      ?.verifier ?? null
  );
}

export async function pgVerifier(client: pg.ClientBase): Promise<string | null> {
  const result = await client.query<{ verifier: string }>(
    'select verifier from data_key_check order by id limit 1',
  );
  return result.rows[0]?.verifier ?? null;
}

/** The newest note whose text is sealed (`v1:`), or null (no note yet, or a backup older than the notes). */
export type SealedNote = { code: string; texte: string } | null;
const SEALED_NOTE =
  "select code, texte from report_notes where substr(texte, 1, 3) = 'v1:' order by id desc limit 1";

export function sqliteSealedNote(conn: Sqlite.Database): SealedNote {
  const table = sqliteRows(
    conn,
    "select 1 from sqlite_master where type = 'table' and name = 'report_notes'",
  );
  if (table.length === 0) return null;
  return sqliteRows<{ code: string; texte: string }>(conn, SEALED_NOTE)[0] ?? null;
}

export async function pgSealedNote(client: pg.ClientBase): Promise<SealedNote> {
  const table = await client.query<{ t: string | null }>("select to_regclass('public.report_notes') as t");
  if (table.rows[0]?.t === null) return null;
  return (await client.query<{ code: string; texte: string }>(SEALED_NOTE)).rows[0] ?? null;
}

/**
 * Whether the key opens the notes as it opens the verifier (checked on the newest sealed note, bound to its
 * code): a copy whose notes another key sealed would answer every thread with an error once restored.
 */
export function keyOpensNotes(key: Buffer, note: SealedNote): boolean {
  if (note === null) return true;
  try {
    createCipher(key).decrypt(note.texte, NOTE_TEXT, note.code);
    return true;
  } catch {
    return false;
  }
}

export function sqliteSchema(conn: Sqlite.Database): string[] {
  const rows = sqliteRows<{ type: string; name: string; tbl_name: string; sql: string | null }>(
    conn,
    "select type, name, tbl_name, sql from sqlite_master where name not like 'sqlite_%'",
  );
  return rows
    .map((r) => `${r.type} ${r.name} (${r.tbl_name}) ${(r.sql ?? '').replace(/\s+/g, ' ').trim()}`)
    .sort();
}

const PG_CATALOG = `
select format('relation %I.%I %s', n.nspname, c.relname, c.relkind) as line
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname in ${PG_SCHEMAS} and c.relkind in ('r', 'p', 'v', 'm', 'S')
union all
select format('column %I.%I.%I %s%s%s%s', n.nspname, c.relname, a.attname, format_type(a.atttypid, a.atttypmod),
              case when a.attnotnull then ' not null' else '' end,
              case when a.attidentity <> '' then ' identity ' || a.attidentity::text else '' end,
              coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), ''))
  from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
  left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
  where n.nspname in ${PG_SCHEMAS} and c.relkind in ('r', 'p', 'v', 'm') and a.attnum > 0 and not a.attisdropped
union all
select 'index ' || pg_get_indexdef(i.indexrelid)
  from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
  where n.nspname in ${PG_SCHEMAS}
union all
select format('constraint %I on %I.%I %s', k.conname, n.nspname, c.relname, pg_get_constraintdef(k.oid))
  from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
  where n.nspname in ${PG_SCHEMAS}
union all
select format('trigger %s (état %s)', pg_get_triggerdef(t.oid), t.tgenabled)
  from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
  where n.nspname in ${PG_SCHEMAS} and not t.tgisinternal
union all
select format('function %I.%I(%s) %s', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid), md5(pg_get_functiondef(p.oid)))
  from pg_proc p join pg_namespace n on n.oid = p.pronamespace
  where n.nspname in ${PG_SCHEMAS} and p.prokind in ('f', 'p')
union all
select format('view %I.%I %s', n.nspname, c.relname, md5(pg_get_viewdef(c.oid)))
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname in ${PG_SCHEMAS} and c.relkind in ('v', 'm')
union all
select 'extension ' || extname from pg_extension`;

export async function pgSchema(client: pg.ClientBase): Promise<string[]> {
  return (await client.query<{ line: string }>(PG_CATALOG)).rows.map((r) => r.line).sort();
}

/** The lines of `actual` missing from `expected` and the reverse, in French; null when the sets are equal. */
export function schemaDiffers(expected: string[], actual: string[]): string | null {
  const have = new Set(actual);
  const want = new Set(expected);
  const missing = expected.filter((line) => !have.has(line));
  const extra = actual.filter((line) => !want.has(line));
  if (missing.length === 0 && extra.length === 0) return null;
  const show = (lines: string[]) =>
    lines.slice(0, 3).join(' ; ') + (lines.length > 3 ? ` (et ${lines.length - 3} autre(s))` : '');
  return [
    missing.length ? `manquant : ${show(missing)}` : '',
    extra.length ? `inattendu : ${show(extra)}` : '',
  ]
    .filter(Boolean)
    .join(' — ');
}

/** The schema this version's migrations produce on SQLite (a scratch file, removed after). */
export async function expectedSqliteSchema(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'signalements-schema-'));
  try {
    const file = join(dir, 'schema.db');
    const db = openDatabase(`file:${file}`, { readWorkers: 0 });
    try {
      await db.migrate();
    } finally {
      await db.close();
    }
    const conn = new Sqlite(file, { readonly: true });
    try {
      return sqliteSchema(conn);
    } finally {
      conn.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The schema this version's migrations produce on PostgreSQL (a scratch database, dropped after). */
export async function expectedPgSchema(admin: pg.ClientBase, url: string, prefix: string): Promise<string[]> {
  const name = `${prefix.slice(0, 40)}_schema_${randomBytes(4).toString('hex')}`;
  await admin.query(`create database ${pg.escapeIdentifier(name)}`);
  try {
    const scratch = new URL(url);
    scratch.pathname = `/${name}`;
    const db = openDatabase(scratch.toString(), {});
    try {
      await db.migrate();
    } finally {
      await db.close();
    }
    const client = new pg.Client({ connectionString: scratch.toString() });
    await client.connect();
    try {
      return await pgSchema(client);
    } finally {
      await client.end();
    }
  } finally {
    await admin.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
  }
}
