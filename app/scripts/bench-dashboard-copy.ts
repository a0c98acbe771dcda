// The PostgreSQL half of the benchmarks (bench:dashboard, bench:reports, bench:load): the same rows as the
// SQLite benchmark file, same ids, copied with multi-row `insert … select * from unnest(…)`.
import Sqlite from 'better-sqlite3';
import type pg from 'pg';
import { dayCountsBackfill } from '#server/db/day-counts';

const fr = (n: number) => n.toLocaleString('fr-FR');

// Tables the dashboard's seven calls and the list read, parents first. Unless `texts` is set, the report's
// free texts (description, search text, provisional actions, evidence) are left empty on the copy: no
// dashboard call reads them, and they would make most of the copy time (the search text has a trigram
// index). The list's benchmarks search: they copy them.
const EMPTIED: Record<string, string | null> = {
  description: null,
  search_text: '',
  action_provisoires: '[]',
  preuves: '[]',
};
const COPIED = [
  'utilisateur_roles',
  'utilisateurs',
  'partenaires',
  'projects',
  'subjects',
  'canals',
  'niveaux',
  'statuts',
  'resultats',
  'regions',
  'districts',
  'communes',
  'signalements',
  'signalement_subjects',
  'signalement_projects',
  'signalement_assignees',
];
const CHUNK = 20_000;

/** Copies the rows the dashboard reads from the SQLite file into a migrated PostgreSQL database. */
export async function copyToPostgres(
  sqliteFile: string,
  client: pg.Client,
  options: { texts?: boolean } = {},
): Promise<void> {
  const source = new Sqlite(sqliteFile, { readonly: true });
  // Secondary indexes are built once after the load instead of row by row: several times faster.
  const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
    `select indexname, indexdef from pg_indexes i where schemaname = 'public' and tablename = any($1)
       and not exists (select 1 from pg_constraint c where c.conindid = format('%I.%I', i.schemaname, i.indexname)::regclass)`,
    [COPIED],
  );
  for (const index of indexes) await client.query(`drop index "${index.indexname}"`);
  // Triggers off during the load (the day counts would be upserted row by row), then the counts are
  // filled in one pass by the migration's own statements.
  await client.query('set session_replication_role = replica');
  try {
    for (const table of COPIED) {
      const { rows: columns } = await client.query<{ column_name: string; udt_name: string }>(
        'select column_name, udt_name from information_schema.columns where table_name = $1 order by ordinal_position',
        [table],
      );
      const names = columns.map((c) => c.column_name);
      const convert = columns.map((c) => {
        if (!options.texts && table === 'signalements' && c.column_name in EMPTIED)
          return () => EMPTIED[c.column_name];
        if (c.udt_name === 'bool') return (v: unknown) => (v === null ? null : v === 1);
        if (c.udt_name === 'timestamptz')
          return (v: unknown) => (v === null ? null : new Date(Number(v)).toISOString());
        return (v: unknown) => v;
      });
      const insert = `insert into "${table}" (${names.map((n) => `"${n}"`).join(', ')}) select * from unnest(${columns.map((c, i) => `$${i + 1}::${c.udt_name}[]`).join(', ')})`;
      const flush = async (batch: unknown[][]) => {
        if (batch.length)
          await client.query(
            insert,
            columns.map((_, i) => batch.map((r) => r[i])),
          );
      };
      let batch: unknown[][] = [];
      let copied = 0;
      for (const row of source
        .prepare(`select ${names.map((n) => `"${n}"`).join(', ')} from "${table}"`)
        .raw()
        .iterate()) {
        batch.push((row as unknown[]).map((v, i) => convert[i]!(v)));
        if (batch.length === CHUNK) {
          await flush(batch);
          copied += batch.length;
          batch = [];
          if (copied % 200_000 === 0) console.info(`  … ${table} : ${fr(copied)}`);
        }
      }
      await flush(batch);
      if (names.includes('id')) {
        await client.query(
          `select setval(pg_get_serial_sequence('"${table}"', 'id'), coalesce((select max(id) from "${table}"), 1))`,
        );
      }
    }
    console.info(`  … reconstruction de ${indexes.length} index`);
    for (const index of indexes) await client.query(index.indexdef);
    await client.query('set session_replication_role = default');
    // The copy of the search texts that a bounded count of common words reads (migration 0029, decision
    // 0064), filled as its migration does: its trigger was off with the others.
    await client.query(
      `insert into signalement_search_texts (id, search_text) select id, search_text from signalements
       on conflict (id) do update set search_text = excluded.search_text`,
    );
    console.info('  … compteurs par jour du tableau de bord');
    for (const statement of dayCountsBackfill('postgres')) await client.query(statement);
  } finally {
    source.close();
  }
}
