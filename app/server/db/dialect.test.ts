import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testEngines, type TestDatabase } from '#tests/helpers/db';
import { dialectFor } from './dialect';

/** The error a failing statement throws, for the dialect to recognise. */
async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('the statement did not fail');
}

describe('dialectFor', () => {
  it('picks the dialect from the URL alone', () => {
    expect(dialectFor('postgres://u:secret@db.example.mg:6543/prod').engine).toBe('postgres');
    expect(dialectFor('postgresql://localhost/x').engine).toBe('postgres');
    expect(dialectFor('file:./data/x.db').engine).toBe('sqlite');
  });

  it('never names a PostgreSQL target with its password', () => {
    const target = dialectFor('postgres://u:secret@db.example.mg:6543/prod').describeTarget(
      'postgres://u:secret@db.example.mg:6543/prod',
    );
    expect(target).toBe('la base PostgreSQL « prod » sur db.example.mg:6543');
  });
});

describe.each(await testEngines())('the %s dialect', (engine) => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase(engine);
  });
  afterAll(async () => tdb?.drop());

  it('is the database’s own, and the one its URL names', () => {
    expect(tdb.db.dialect.engine).toBe(engine);
    expect(dialectFor(tdb.url)).toBe(tdb.db.dialect);
  });

  it('recognises a real unique violation, and only as such', async () => {
    const { db } = tdb;
    const r = db.t.utilisateurRoles;
    await db.transaction((tx) => tx.insert(r).values({ code: 'ROLE_DIALECT', designation: 'D' }));
    const error = await failure(() =>
      db.transaction((tx) => tx.insert(r).values({ code: 'ROLE_DIALECT', designation: 'D' })),
    );
    expect(db.dialect.isUniqueViolation(error)).toBe(true);
    expect(db.dialect.isForeignKeyViolation(error)).toBe(false);
  });

  it('recognises a real foreign-key violation, and only as such', async () => {
    const { db } = tdb;
    const error = await failure(() =>
      db.transaction((tx) =>
        tx.insert(db.t.utilisateurs).values({
          code: 'U-DIALECT',
          email: 'dialect@example.mg',
          nomPrenom: 'Dialecte',
          roleId: 987_654,
        }),
      ),
    );
    expect(db.dialect.isForeignKeyViolation(error)).toBe(true);
    expect(db.dialect.isUniqueViolation(error)).toBe(false);
    expect(db.dialect.isUniqueViolation(new Error('autre'))).toBe(false);
  });

  it('decodes a timestamp parameter back to the same instant, and counts as numbers', async () => {
    const { db } = tdb;
    const at = new Date('2026-03-04T05:06:07.089Z');
    const later = new Date(at.getTime() + 1.5 * 86_400_000);
    const [row] = await db.rows(
      sql`select ${db.dialect.timestamp(at)} as at, ${db.dialect.daysBetween(db.dialect.timestamp(at), db.dialect.timestamp(later))} as days,
        (select count(*) from ${db.t.utilisateurRoles}) as n, null as missing`,
    );
    expect(db.dialect.date(row?.at)?.toISOString()).toBe(at.toISOString());
    expect(db.dialect.number(row?.days)).toBeCloseTo(1.5, 9);
    const roles = await db.read.select().from(db.t.utilisateurRoles);
    expect(db.dialect.count(row?.n)).toBe(roles.length);
    expect(db.dialect.count(row?.missing)).toBe(0);
    expect(db.dialect.number(row?.missing)).toBeNull();
    expect(db.dialect.date(row?.missing)).toBeNull();
  });

  it('decodes a stored timestamp read raw to its instant, whatever the process’s time zone', async () => {
    const { db } = tdb;
    const u = db.t.utilisateurs;
    const at = new Date('2026-03-04T05:06:07.089Z');
    const roles = db.t.utilisateurRoles;
    const [role] = await db.transaction((tx) =>
      tx.insert(roles).values({ code: 'ROLE_DIALECT_TZ', designation: 'F' }).returning({ id: roles.id }),
    );
    await db.transaction((tx) =>
      tx.insert(u).values({
        code: 'U-DIALECT-TZ',
        email: 'dialect-tz@example.mg',
        nomPrenom: 'Fuseau',
        roleId: role!.id,
        lastConnectionAt: at,
      }),
    );
    const zone = process.env.TZ;
    // A server whose machine keeps Madagascar's time: a stored instant is not read as local time.
    process.env.TZ = 'Indian/Antananarivo';
    try {
      const [row] = await db.rows(
        sql`select ${u.lastConnectionAt} as at from ${u} where ${u.code} = 'U-DIALECT-TZ'`,
      );
      expect(db.dialect.date(row?.at)?.toISOString()).toBe(at.toISOString());
      const [values] = await db.preparedValues(
        'dialect_time_zone',
        (orm) =>
          orm
            .select({ at: u.lastConnectionAt })
            .from(u)
            .where(eq(u.code, sql.placeholder('code'))),
        { code: 'U-DIALECT-TZ' },
      );
      expect(db.dialect.date(values?.[0])?.toISOString()).toBe(at.toISOString());
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('generates a range of days with their calendar dates', async () => {
    const { db } = tdb;
    const rows = await db.rows(
      sql`select ${db.dialect.dayKey(sql`d.day`)} as day from ${db.dialect.dayRange(59, 61)} as d order by d.day`,
    );
    expect(rows.map((r) => String(r.day))).toEqual(['1970-03-01', '1970-03-02', '1970-03-03']);
  });

  it('reads an id list as one parameter, empty or not, and locks rows the same', async () => {
    const { db } = tdb;
    const r = db.t.utilisateurRoles;
    const [role] = await db.read.select().from(r).where(eq(r.code, 'ROLE_DIALECT'));
    const ids = (list: number[]) =>
      db.transaction(async (tx) =>
        (
          await db.rows<{ id: number | string }>(
            db.dialect.lockingRows(
              sql`select ${r.id} as id from ${r} where ${db.dialect.idList(r.id, list)}`,
            ),
            tx,
          )
        ).map((row) => Number(row.id)),
      );
    expect(await ids([role!.id, 987_654])).toEqual([role!.id]);
    expect(await ids([])).toEqual([]);
  });
});
