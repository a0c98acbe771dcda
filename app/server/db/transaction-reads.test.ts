// One read rule (docs/decisions/0001-two-engines.md): inside transaction() every way to read goes through
// the transaction, outside it the readers; execute() joins the transaction; afterCommit waits for COMMIT.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testEngines, type TestDatabase } from '#tests/helpers/db';

describe.each(await testEngines())('reads and transactions on %s', (engine) => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase(engine);
  });
  afterAll(async () => tdb?.drop());

  const codes = async (rows: Promise<Array<{ code: string }>>) => (await rows).map((r) => r.code);

  it('reads the transaction’s own uncommitted write inside it, and not from outside before the commit', async () => {
    const { db } = tdb;
    const c = db.t.canals;
    let written!: () => void;
    const inserted = new Promise<void>((resolve) => (written = resolve));
    // Started outside the transaction: its reads are outside it even while it runs.
    const outside = (async () => {
      await inserted;
      expect(db.inTransaction()).toBe(false);
      return {
        read: await codes(db.read.select({ code: c.code }).from(c)),
        rows: await codes(db.rows<{ code: string }>(sql`select code from canals`)),
      };
    })();
    const inside = await db.transaction(async (tx) => {
      await tx.insert(c).values({ code: 'OWN', designation: 'Propre', icon: 'x' });
      written();
      const seenOutside = await outside;
      return {
        inTransaction: db.inTransaction(),
        seenOutside,
        read: await codes(db.read.select({ code: c.code }).from(c)),
        rows: await codes(db.rows<{ code: string }>(sql`select code from canals`)),
        prepared: await codes(
          db.prepared(
            'test_canal_by_code',
            (orm) =>
              orm
                .select({ code: c.code })
                .from(c)
                .where(eq(c.code, sql.placeholder('code'))),
            { code: 'OWN' },
          ),
        ),
      };
    });
    expect(inside).toEqual({
      inTransaction: true,
      seenOutside: { read: [], rows: [] },
      read: ['OWN'],
      rows: ['OWN'],
      prepared: ['OWN'],
    });
    // Committed: the readers see it now, and the prepared statement (built outside, kept) too.
    expect(db.inTransaction()).toBe(false);
    expect(await codes(db.read.select({ code: c.code }).from(c))).toEqual(['OWN']);
    expect(
      await codes(
        db.prepared(
          'test_canal_by_code',
          (orm) =>
            orm
              .select({ code: c.code })
              .from(c)
              .where(eq(c.code, sql.placeholder('code'))),
          { code: 'OWN' },
        ),
      ),
    ).toEqual(['OWN']);
    await db.transaction(async (tx) => tx.delete(c));
  });

  it('runs execute() inside a transaction on it: it returns, and is rolled back with it', async () => {
    const { db } = tdb;
    const c = db.t.canals;
    const insert = (code: string) =>
      db.execute(sql`insert into canals (code, designation, icon) values (${code}, 'E', 'x')`);
    await expect(
      db.transaction(async () => {
        await insert('ROLLED');
        // Seen by the transaction's reads: the same connection.
        expect(await codes(db.read.select({ code: c.code }).from(c))).toEqual(['ROLLED']);
        throw new Error('annulée');
      }),
    ).rejects.toThrow('annulée');
    expect(await codes(db.read.select({ code: c.code }).from(c))).toEqual([]);
    await db.transaction(async () => insert('KEPT'));
    expect(await codes(db.read.select({ code: c.code }).from(c))).toEqual(['KEPT']);
    await db.execute(sql`delete from canals`);
    expect(await codes(db.read.select({ code: c.code }).from(c))).toEqual([]);
  });

  it('runs afterCommit work once after the outermost commit, never after a rollback', async () => {
    const { db } = tdb;
    const c = db.t.canals;
    const ran: string[] = [];
    let seenByReaders: Promise<string[]> | undefined;
    const done = db.transaction(async (tx) => {
      await db.transaction(async (inner) => {
        await inner.insert(c).values({ code: 'AFTER', designation: 'A', icon: 'x' });
        db.afterCommit(() => {
          ran.push('inner');
          // Runs outside the finished transaction: a read here goes to the readers.
          expect(db.inTransaction()).toBe(false);
          seenByReaders = codes(db.read.select({ code: c.code }).from(c));
        });
      });
      expect(ran).toEqual([]);
      db.afterCommit(() => ran.push('outer'));
      await tx.select().from(c);
      expect(ran).toEqual([]);
    });
    await done;
    expect(ran).toEqual(['inner', 'outer']);
    expect(await seenByReaders).toEqual(['AFTER']);

    await expect(
      db.transaction(async () => {
        await db.transaction(async () => {
          db.afterCommit(() => ran.push('rolled back'));
        });
        throw new Error('annulée');
      }),
    ).rejects.toThrow('annulée');
    expect(ran).toEqual(['inner', 'outer']);

    // Outside a transaction: at once.
    db.afterCommit(() => ran.push('outside'));
    expect(ran).toEqual(['inner', 'outer', 'outside']);
    await db.execute(sql`delete from canals`);
  });

  it('does not let work started inside a transaction join it once it has ended', async () => {
    const { db } = tdb;
    let later!: Promise<boolean>;
    await db.transaction(async () => {
      later = new Promise((resolve) => setTimeout(() => resolve(db.inTransaction()), 20));
    });
    expect(await later).toBe(false);
  });
});
