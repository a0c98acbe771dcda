import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idList, inIdList } from '#server/db/prepared';
import { createTestDatabase, testEngines, type TestDatabase } from '#tests/helpers/db';

describe.each(await testEngines())('database client on %s', (engine) => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase(engine);
  });
  afterAll(async () => tdb?.drop());

  it('commits a transaction and its rows become visible to readers', async () => {
    const { db } = tdb;
    await db.transaction(async (tx) => {
      await tx.insert(db.t.utilisateurRoles).values({ code: 'ROLE_X', designation: 'X' });
    });
    const rows = await db.read.select().from(db.t.utilisateurRoles);
    expect(rows.map((r) => r.code)).toContain('ROLE_X');
  });

  it('rolls back every write of a failed transaction', async () => {
    const { db } = tdb;
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(db.t.utilisateurRoles).values({ code: 'ROLE_Y', designation: 'Y' });
        await Promise.resolve();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const rows = await db.read.select().from(db.t.utilisateurRoles);
    expect(rows.map((r) => r.code)).not.toContain('ROLE_Y');
  });

  it('serialises concurrent transactions without losing a write', async () => {
    const { db } = tdb;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        db.transaction(async (tx) => {
          await new Promise((r) => setTimeout(r, 1));
          await tx.insert(db.t.subjects).values({ code: `S${i}`, designation: `Sujet ${i}` });
        }),
      ),
    );
    const rows = await db.read.select().from(db.t.subjects);
    expect(rows).toHaveLength(20);
  });

  it('joins a nested transaction to the outer one', async () => {
    const { db } = tdb;
    await expect(
      db.transaction(async () => {
        await db.transaction(async (inner) => {
          await inner.insert(db.t.canals).values({ code: 'NESTED', designation: 'N', icon: 'x' });
        });
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    const rows = await db.read.select().from(db.t.canals);
    expect(rows).toHaveLength(0);
  });

  it('returns the same JS types on both engines (Date, boolean, string[])', async () => {
    const { db } = tdb;
    const when = new Date('2025-03-04T05:06:07.890Z');
    await db.transaction(async (tx) => {
      const [role] = await tx
        .insert(db.t.utilisateurRoles)
        .values({ code: 'ROLE_T', designation: 'T' })
        .returning();
      const [user] = await tx
        .insert(db.t.utilisateurs)
        .values({ code: 'U1', email: 'a@b.mg', nomPrenom: 'A B', roleId: role!.id, lastConnectionAt: when })
        .returning();
      const [p] = await tx
        .insert(db.t.partenaires)
        .values({ code: 'P1', designation: 'P', initial: 'P', color: '#000000' })
        .returning();
      await tx.insert(db.t.signalements).values({
        code: 'SIG-TEST-0001',
        signalementAt: when,
        createdById: user!.id,
        partenaireId: p!.id,
        preuves: ['photo', 'reçu'],
      });
    });
    const [s] = await db.read.select().from(db.t.signalements);
    expect(s!.signalementAt).toBeInstanceOf(Date);
    expect(s!.signalementAt.toISOString()).toBe(when.toISOString());
    expect(s!.createdAt).toBeInstanceOf(Date);
    expect(s!.isTreated).toBe(false);
    expect(s!.preuves).toEqual(['photo', 'reçu']);
    expect(s!.actionProvisoires).toEqual([]);
  });

  it('reads a prepared statement as arrays of the driver values, which the dialect decodes as drizzle maps them', async () => {
    const { db } = tdb;
    const s = db.t.signalements;
    const fields = {
      id: s.id,
      code: s.code,
      at: s.signalementAt,
      closeAt: s.closeAt,
      treated: s.isTreated,
      anonymous: s.isAnonyme,
      preuves: s.preuves,
      people: sql<number>`(select count(*) from ${db.t.sources})`,
    };
    const mapped = await db.read.select(fields).from(s).orderBy(s.id);
    expect(mapped.length).toBeGreaterThan(0);
    let builds = 0;
    const read = (ids: number[]) =>
      db.preparedValues(
        'client_test_values',
        (orm) => {
          builds++;
          return orm
            .select(fields)
            .from(s)
            .where(inIdList(db, s.id, 'ids'))
            .orderBy(s.id);
        },
        { ids: idList(db, ids) },
      );
    const rows = await read(mapped.map((r) => r.id));
    expect(rows.every(Array.isArray)).toBe(true);
    const { dialect: d } = db;
    expect(
      rows.map(([id, code, at, closeAt, treated, anonymous, preuves, people]) => ({
        id,
        code,
        at: d.date(at),
        closeAt: d.date(closeAt),
        treated: d.flag(treated),
        anonymous: d.flag(anonymous),
        preuves: d.json(preuves),
        people: d.count(people),
      })),
    ).toEqual(mapped.map((r) => ({ ...r, people: Number(r.people) })));
    // One statement under its name, whatever the values; none left out.
    expect(await read([])).toEqual([]);
    expect(await read([mapped[0]!.id])).toHaveLength(1);
    expect(builds).toBe(1);
    // Its reads never run inside a transaction (its statements are not the transaction's).
    await expect(db.transaction(async () => read([mapped[0]!.id]))).rejects.toThrow(/outside a transaction/);
  });
});

describe('PostgreSQL statement limit', () => {
  it('cancels a statement of the serving pool past DATABASE_STATEMENT_TIMEOUT_SECONDS, and the migrations run without it', async () => {
    if (!(await testEngines()).includes('postgres')) return;
    const tdb = await createTestDatabase('postgres');
    const { openDatabase } = await import('./client');
    const { sql } = await import('drizzle-orm');
    const db = openDatabase(tdb.url, { statementTimeoutMs: 300 });
    try {
      // 57014: query_canceled (statement timeout).
      await expect(db.rows(sql`select pg_sleep(3)`)).rejects.toMatchObject({ cause: { code: '57014' } });
      await db.migrate();
      expect(await db.rows(sql`select 1 as one`)).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
      await tdb.drop();
    }
  });
});

describe('SQLite migrations', () => {
  it('continue a database migrated by drizzle’s own migrator: nothing applied twice', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const Sqlite = (await import('better-sqlite3')).default;
    const { drizzle } = await import('drizzle-orm/better-sqlite3');
    const { migrate } = await import('drizzle-orm/better-sqlite3/migrator');
    const { PATHS } = await import('../paths');
    const { openDatabase } = await import('./client');
    const dir = mkdtempSync(join(tmpdir(), 'signalements-migrate-'));
    try {
      const file = join(dir, 'db.sqlite');
      const conn = new Sqlite(file);
      migrate(drizzle(conn), { migrationsFolder: PATHS.migrations.sqlite });
      const list = (c: InstanceType<typeof Sqlite>) =>
        c.prepare('select hash, created_at from __drizzle_migrations order by id').raw().iterate();
      const before = [...list(conn)];
      conn.close();
      const db = openDatabase(`file:${file}`);
      await db.migrate();
      await db.close();
      const again = new Sqlite(file);
      expect([...list(again)]).toEqual(before);
      expect(before.length).toBeGreaterThan(5);
      again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SQLite durability', () => {
  it('syncs every commit to disk (synchronous = FULL on the writer, WAL journal)', async () => {
    const tdb = await createTestDatabase('sqlite');
    const { sql } = await import('drizzle-orm');
    try {
      const pragmas = await tdb.db.transaction(async (tx) => ({
        synchronous: await tdb.db.rows(sql`PRAGMA synchronous`, tx),
        journal: await tdb.db.rows(sql`PRAGMA journal_mode`, tx),
      }));
      // 2 = FULL (0 OFF, 1 NORMAL, 3 EXTRA).
      expect(pragmas).toEqual({ synchronous: [{ synchronous: 2 }], journal: [{ journal_mode: 'wal' }] });
    } finally {
      await tdb.drop();
    }
  });
});
