// The benchmarks' demo data (bench:reports, bench:load, bench:dashboard): a database topped up to N reports
// by the demo generator, generated once and kept for later runs, with the progress printed; and its copy
// in PostgreSQL, so both engines are measured on the same rows.
import Sqlite from 'better-sqlite3';
import { count, sql } from 'drizzle-orm';
import pg from 'pg';
import type { WithCipher } from '#server/context';
import { openDatabase, type Database } from '#server/db/client';
import { seedDemo } from '#server/db/seed/demo';
import { seed } from '#server/db/seed/index';
import { copyToPostgres } from './bench-dashboard-copy';

const fr = (n: number, digits = 0) => n.toLocaleString('fr-FR', { maximumFractionDigits: digits });

/**
 * Generates what the database lacks of `target` reports (the generator's `seed` makes the rows the same
 * from one run to the next). Returns how many reports it held before.
 */
export async function topUpDemoReports(
  ctx: WithCipher,
  target: number,
  options: { seed: number; where: string },
): Promise<number> {
  const { db } = ctx;
  const [{ n: present } = { n: 0 }] = await db.read.select({ n: count() }).from(db.t.signalements);
  if (present >= target) {
    console.info(`${fr(present)} signalements déjà présents (${options.where}), réutilisés.`);
    return present;
  }
  console.info(
    `${fr(present)} signalements présents (${options.where}), génération de ${fr(target - present)}…`,
  );
  const started = performance.now();
  let shown = 0;
  await seedDemo(ctx, {
    reports: target - present,
    seed: options.seed,
    onProgress(done, total) {
      if (done - shown >= 100_000 || done === total) {
        shown = done;
        console.info(`  … ${fr(done)} / ${fr(total)} (${fr((performance.now() - started) / 1000, 1)} s)`);
      }
    },
  });
  return present;
}

/**
 * Gives the demo reports assignees, in one statement (the demo generator assigns nobody): four reports in
 * five, by id, to the enabled users in turn, one each; every fifth report stays « Non assigné ». Idempotent:
 * a report that has an assignee is left alone, so a topped-up database gets the same shares. The due days
 * are the generator's (it recomputes every open report's, set-based, when it is done). Returns how many
 * reports it assigned.
 */
export async function assignDemoReports(db: Database): Promise<number> {
  const started = performance.now();
  const before = await assignedCount(db);
  await db.transaction(async () => {
    await db.execute(sql`insert into signalement_assignees (signalement_id, user_id, assigned_at)
      select s.id, u.id, s.signalement_at
      from signalements as s
      join (select id, row_number() over (order by id) - 1 as k, count(*) over () as m
            from utilisateurs where is_enabled = ${db.engine === 'postgres' ? sql`true` : sql`1`}) as u
        on u.k = s.id % u.m
      where s.id % 5 <> 0
        and not exists (select 1 from signalement_assignees as a where a.signalement_id = s.id)`);
  });
  const added = (await assignedCount(db)) - before;
  if (added > 0)
    console.info(`  ${fr(added)} signalements assignés (${fr((performance.now() - started) / 1000, 1)} s)`);
  return added;
}

async function assignedCount(db: Database): Promise<number> {
  const [row] = await db.read.select({ n: count() }).from(db.t.signalementAssignees);
  return Number(row?.n ?? 0);
}

/**
 * A PostgreSQL database holding the same rows as the SQLite benchmark file (same ids, same texts, same
 * ciphertexts: it reads with the SQLite file's key), made once by copy and kept for later runs while it
 * holds at least `minimum` reports (bench:load adds some on each run). Returns its URL.
 */
export async function postgresCopyOf(
  sqliteFile: string,
  name: string,
  adminUrl: string,
  minimum: number,
): Promise<string> {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const source = new Sqlite(sqliteFile, { readonly: true });
  const { n: wanted } = source.prepare('select count(*) as n from signalements').get() as { n: number };
  source.close();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount !== 0;
    if (exists) {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      const held = await client
        .query<{ n: string }>('select count(*) as n from signalements')
        .then((r) => Number(r.rows[0]!.n))
        .catch(() => -1)
        .finally(() => client.end());
      if (held >= minimum) {
        console.info(`${fr(held)} signalements déjà copiés dans PostgreSQL (${name}), réutilisés.`);
        return url.toString();
      }
      await admin.query(`drop database ${name} with (force)`);
    }
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  console.info(`Copie de ${fr(wanted)} signalements de ${sqliteFile} dans PostgreSQL (${name})…`);
  const started = performance.now();
  const db = openDatabase(url.toString());
  try {
    await db.migrate();
  } finally {
    await db.close();
  }
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await copyToPostgres(sqliteFile, client, { texts: true });
    // Seeded before the VACUUM, as every start seeds: the first seed computes the business days and rewrites
    // the due day of every open report (syncBusinessDays), an UPDATE that would otherwise come at the bench's
    // first start and unmark most of the table's pages in the visibility map, which index-only reads need
    // (docs/decisions/0060): the figures would be those of a table autovacuum has not yet visited.
    const seeded = openDatabase(url.toString());
    try {
      await seed(seeded);
    } finally {
      await seeded.close();
    }
    await client.query('vacuum analyze');
  } finally {
    await client.end();
  }
  console.info(`  copie et VACUUM ANALYZE : ${fr((performance.now() - started) / 1000, 1)} s`);
  return url.toString();
}
