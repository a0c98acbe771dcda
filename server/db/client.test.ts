import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testEngines, type TestDatabase } from '../../tests/helpers/db';

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
      const [role] = await tx.insert(db.t.utilisateurRoles).values({ code: 'ROLE_T', designation: 'T' }).returning();
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
});
