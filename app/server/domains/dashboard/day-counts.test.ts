// signalement_day_counts must equal what counting the reports live gives, after every kind of write:
// the services (REST), direct SQL (the demo generator's path), links changed in place, reports
// deleted, dates before 1970, TRUNCATE on PostgreSQL; and the migration's backfill must rebuild it. On
// PostgreSQL a transaction's counts are added at its COMMIT (decision 0057): a write holds no counter row
// before, and what one transaction did in any order is counted exactly once it commits.
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { createReport, mergePatch } from '#tests/helpers/signalements';
import type { Database } from '#server/db/client';
import { dayCountsBackfill } from '#server/db/day-counts';
import { businessDayNumber, DEFAULT_BUSINESS_TIME_ZONE } from '#shared/calendar';

const DAY_MS = 86_400_000;
const DIMENSIONS = {
  statut: 'statutId',
  region: 'regionId',
  district: 'districtId',
  commune: 'communeId',
  canal: 'canalPrincipalId',
  niveau: 'niveauId',
  resultat: 'resultatId',
  partenaire: 'partenaireId',
  createur: 'createdById',
} as const;

/** The counts recomputed from the reports themselves, `dimension:refId:day` → n. */
async function liveCounts(db: Database): Promise<Record<string, number>> {
  const t = db.t;
  const out: Record<string, number> = {};
  const add = (key: string) => (out[key] = (out[key] ?? 0) + 1);
  const reports = await db.read.select().from(t.signalements);
  const dayOf = new Map<number, number>();
  for (const r of reports) {
    const day = businessDayNumber(r.signalementAt, DEFAULT_BUSINESS_TIME_ZONE);
    dayOf.set(r.id, day);
    add(`total:0:${day}`);
    for (const [dimension, field] of Object.entries(DIMENSIONS)) {
      const ref = r[field];
      if (ref !== null) add(`${dimension}:${ref}:${day}`);
    }
  }
  for (const link of await db.read.select().from(t.signalementSubjects)) {
    add(`subject:${link.subjectId}:${dayOf.get(link.signalementId)}`);
  }
  return out;
}

async function storedCounts(db: Database): Promise<Record<string, number>> {
  const c = db.t.signalementDayCounts;
  const rows = await db.read.select().from(c);
  expect(
    rows.every((r) => r.n >= 0),
    'no count below zero',
  ).toBe(true);
  return Object.fromEntries(
    rows.filter((r) => r.n !== 0).map((r) => [`${r.dimension}:${r.refId}:${r.day}`, r.n]),
  );
}

const expectInStep = async (db: Database) => expect(await storedCounts(db)).toEqual(await liveCounts(db));

describe.each(await testEngines())('dashboard day counts on %s', (engine) => {
  let t: TestApp;
  let cookie: string;
  let codes: string[];
  beforeAll(async () => {
    t = await createTestApp(engine);
    await t.user('agent@example.mg');
    cookie = await t.login('agent@example.mg');
    codes = [
      await createReport(t, cookie, { signalementAt: '2025-03-10' }),
      await createReport(t, cookie, {
        signalementAt: '2025-03-10',
        subjects: ['/api/subjects/CORRUPTION', '/api/subjects/FRAUDE'],
      }),
      await createReport(t, cookie, { signalementAt: '2025-03-11', canalPrincipal: '/api/canals/EMAIL' }),
    ];
  });
  afterAll(async () => t?.close());

  const idOf = async (code: string) => {
    const s = t.db.t.signalements;
    const [row] = await t.db.read.select({ id: s.id }).from(s).where(eq(s.code, code));
    return row!.id;
  };

  /** The ids a report written in SQL refers to: a creator, a partner, and every subject in id order. */
  const references = async () => {
    const { t: tables } = t.db;
    const [creator] = await t.db.read
      .select({ id: tables.utilisateurs.id })
      .from(tables.utilisateurs)
      .limit(1);
    const [partner] = await t.db.read.select({ id: tables.partenaires.id }).from(tables.partenaires).limit(1);
    const subjects = await t.db.read
      .select({ id: tables.subjects.id })
      .from(tables.subjects)
      .orderBy(tables.subjects.id);
    return { creator: creator!.id, partner: partner!.id, subjects: subjects.map((s) => s.id) };
  };

  it('counts reports created through the service', async () => {
    await expectInStep(t.db);
    expect((await storedCounts(t.db))[`total:0:${Math.floor(Date.UTC(2025, 2, 10) / DAY_MS)}`]).toBe(2);
  });

  it('follows every change the service makes: classification, subjects, location', async () => {
    const url = `/api/signalements/${codes[0]}`;
    const patched = await mergePatch(t, cookie, url, {
      statut: '/api/statuts/TRAITE',
      niveau: '/api/niveaux/ELEVE',
      resultat: '/api/resultats/RESULTAT_AVERE',
      subjects: ['/api/subjects/FRAUDE'],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    await expectInStep(t.db);
    const located = await mergePatch(t, cookie, `${url}/localisation`, { region: '/api/regions/MG11' });
    expect(located.statusCode, located.body).toBe(200);
    await expectInStep(t.db);
    expect(
      (await mergePatch(t, cookie, url, { niveau: null, canalPrincipal: '/api/canals/EMAIL' })).statusCode,
    ).toBe(200);
    await expectInStep(t.db);
  });

  it('follows writes made in SQL: dates changed, inserts before 1970, links changed in place, deletions', async () => {
    const { t: tables } = t.db;
    const { creator, partner, subjects } = await references();
    // The service never changes signalementAt; a correction in SQL moves every count of the report,
    // its subjects included.
    const first = await idOf(codes[0]!);
    await t.db.transaction(async (tx) => {
      await tx
        .update(tables.signalements)
        .set({ signalementAt: new Date('2025-04-20T10:00:00Z') })
        .where(eq(tables.signalements.id, first));
    });
    await expectInStep(t.db);
    await t.db.transaction(async (tx) => {
      const [old] = await tx
        .insert(tables.signalements)
        .values({
          code: 'SIG-OLD0-0001',
          signalementAt: new Date('1969-12-31T20:30:00Z'),
          createdById: creator,
          partenaireId: partner,
        })
        .returning({ id: tables.signalements.id });
      await tx.insert(tables.signalementSubjects).values({ signalementId: old!.id, subjectId: subjects[0]! });
    });
    expect((await storedCounts(t.db))['total:0:-1']).toBe(1);
    await expectInStep(t.db);
    // The service never moves a report to another partner or creator; a correction in SQL moves its counts.
    const [otherPartner] = await t.db.transaction((tx) =>
      tx
        .insert(tables.partenaires)
        .values({
          code: 'AUTRE_PARTENAIRE',
          designation: 'Autre partenaire',
          initial: 'AP',
          color: '#123456',
        })
        .returning({ id: tables.partenaires.id }),
    );
    const otherCode = await t.user('autre.createur@example.mg');
    const [otherCreator] = await t.db.read
      .select({ id: tables.utilisateurs.id })
      .from(tables.utilisateurs)
      .where(eq(tables.utilisateurs.code, otherCode));
    await t.db.transaction(async (tx) => {
      await tx
        .update(tables.signalements)
        .set({ partenaireId: otherPartner!.id, createdById: otherCreator!.id })
        .where(eq(tables.signalements.id, first));
    });
    await expectInStep(t.db);

    const second = await idOf(codes[1]!);
    await t.db.execute(
      sql`update ${tables.signalementSubjects} set ${sql.identifier('subject_id')} = ${subjects[2]!} where ${tables.signalementSubjects.signalementId} = ${second} and ${tables.signalementSubjects.subjectId} = ${subjects[0]!}`,
    );
    await expectInStep(t.db);

    await t.db.transaction(async (tx) => {
      await tx.delete(tables.signalements).where(eq(tables.signalements.id, second));
    });
    await expectInStep(t.db);
    expect(Object.keys(await storedCounts(t.db)).some((key) => key.startsWith('subject:'))).toBe(true);
  });

  it('is rebuilt exactly by the migration backfill', async () => {
    const before = await storedCounts(t.db);
    const backfill = dayCountsBackfill(engine);
    expect(backfill).toHaveLength(11);
    await t.db.transaction(async (tx) => {
      await tx.delete(t.db.t.signalementDayCounts);
    });
    expect(await storedCounts(t.db)).toEqual({});
    for (const statement of backfill) await t.db.execute(sql.raw(statement));
    expect(await storedCounts(t.db)).toEqual(before);
    await expectInStep(t.db);
  });

  /** A connection of its own to the test database (PostgreSQL): a transaction left open beside the app's. */
  const connection = async () => {
    const client = new pg.Client({ connectionString: t.config.DATABASE_URL });
    await client.connect();
    return client;
  };
  const insertReport = async (client: pg.Client, code: string, at: string, subjectIds: number[]) => {
    const { creator, partner } = await references();
    const { rows } = await client.query<{ id: number }>(
      'insert into signalements (code, signalement_at, created_by_id, partenaire_id) values ($1, $2, $3, $4) returning id',
      [code, at, creator, partner],
    );
    for (const subjectId of subjectIds) {
      await client.query('insert into signalement_subjects (signalement_id, subject_id) values ($1, $2)', [
        rows[0]!.id,
        subjectId,
      ]);
    }
    return rows[0]!.id;
  };
  const pendingDeltas = async () =>
    Number(
      (await t.db.rows<{ n: number }>(sql`select count(*) as n from signalement_day_count_deltas`))[0]!.n,
    );
  const DAY = Math.floor(Date.UTC(2025, 5, 2) / DAY_MS);
  /** Runs `work` on connections of its own, then checks the counts against the reports and that no delta is left. */
  const onConnections = async (
    count: number,
    work: (clients: pg.Client[], subjects: number[]) => Promise<void>,
  ) => {
    const { subjects } = await references();
    const clients = await Promise.all(Array.from({ length: count }, connection));
    try {
      await work(clients, subjects);
    } finally {
      await Promise.all(clients.map((client) => client.end()));
    }
    await expectInStep(t.db);
    expect(await pendingDeltas()).toBe(0);
  };

  it.runIf(engine === 'postgres')(
    'holds no counter row before COMMIT: a create of the same day and subjects passes a create still open',
    () =>
      onConnections(2, async ([open, other], subjects) => {
        await open!.query('begin');
        await insertReport(open!, 'SIG-OPEN-0001', '2025-06-02T08:00:00Z', [subjects[0]!, subjects[1]!]);
        // Before decision 0057 the open create held this day's counter rows from its INSERT: this one waited.
        await other!.query("set lock_timeout = '5s'");
        await other!.query('begin');
        await insertReport(other!, 'SIG-OPEN-0002', '2025-06-02T09:00:00Z', [subjects[1]!, subjects[0]!]);
        await other!.query('commit');
        expect((await storedCounts(t.db))[`total:0:${DAY}`]).toBe(1);
        expect((await storedCounts(t.db))[`subject:${subjects[0]}:${DAY}`]).toBe(1);
        await open!.query('commit');
        expect((await storedCounts(t.db))[`total:0:${DAY}`]).toBe(2);
        expect((await storedCounts(t.db))[`subject:${subjects[1]}:${DAY}`]).toBe(2);
      }),
  );

  it.runIf(engine === 'postgres')(
    'counts at COMMIT exactly what one transaction did: links added then the date moved, a savepoint rolled back, a report deleted',
    async () => {
      const before = await storedCounts(t.db);
      await onConnections(1, async ([client], subjects) => {
        await client!.query('begin');
        const id = await insertReport(client!, 'SIG-TXN0-0001', '2025-06-03T08:00:00Z', [subjects[2]!]);
        // The link was counted on its report's first day; the move takes it from there to the new one.
        await client!.query("update signalements set signalement_at = '2025-06-05T08:00:00Z' where id = $1", [
          id,
        ]);
        await client!.query('update signalement_subjects set subject_id = $1 where signalement_id = $2', [
          subjects[3]!,
          id,
        ]);
        await client!.query('savepoint undone');
        await insertReport(client!, 'SIG-TXN0-0002', '2025-06-03T08:00:00Z', [subjects[0]!]);
        await client!.query('rollback to savepoint undone');
        const gone = await insertReport(client!, 'SIG-TXN0-0003', '2025-06-04T08:00:00Z', [subjects[0]!]);
        await client!.query('delete from signalements where id = $1', [gone]);
        expect(await storedCounts(t.db), 'nothing counted before COMMIT').toEqual(before);
        await client!.query('commit');
        const after = await storedCounts(t.db);
        expect(after[`subject:${subjects[3]}:${DAY + 3}`]).toBe(1);
        expect(after[`total:0:${DAY + 1}`]).toBeUndefined();
      });
    },
  );

  it.runIf(engine === 'postgres')(
    'counts nothing of a transaction rolled back, and what follows a first write rolled back to its savepoint',
    async () => {
      const before = await storedCounts(t.db);
      await onConnections(1, async ([client], subjects) => {
        await client!.query('begin');
        await insertReport(client!, 'SIG-BACK-0001', '2025-06-06T08:00:00Z', [subjects[0]!]);
        await client!.query('rollback');
        expect(await storedCounts(t.db)).toEqual(before);
        await client!.query('begin');
        await client!.query('savepoint first');
        await insertReport(client!, 'SIG-BACK-0002', '2025-06-07T08:00:00Z', [subjects[0]!]);
        await client!.query('rollback to savepoint first');
        await insertReport(client!, 'SIG-BACK-0003', '2025-06-08T08:00:00Z', [subjects[0]!]);
        await client!.query('commit');
        const after = await storedCounts(t.db);
        expect(after[`total:0:${DAY + 5}`]).toBeUndefined();
        expect(after[`total:0:${DAY + 6}`]).toBe(1);
      });
    },
  );

  it.runIf(engine === 'postgres')('is emptied by TRUNCATE', async () => {
    await t.db.execute(sql`truncate table ${t.db.t.signalementSubjects}`);
    await expectInStep(t.db);
    await t.db.execute(sql`truncate table ${t.db.t.signalements} cascade`);
    expect(await storedCounts(t.db)).toEqual({});
  });
});
