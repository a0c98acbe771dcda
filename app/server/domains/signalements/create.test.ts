// A create reads nothing back (decision 0058): its search text is written with its insert and its history
// is made from the stored row and the references it looked up. Both must be exactly what a read of the
// report gives, on both engines; its answer is read by id only while that id is still the report's.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport, MINIMAL_REPORT } from '#tests/helpers/signalements';
import { serverSuite } from '#tests/helpers/suite';
import { sessionUserOf } from '#tests/helpers/app';
import { diff } from './history';
import { reportSearchText } from './search-text';
import { getCreated } from './service';
import { readReportParts, snapshotOf } from './snapshot';

/**
 * Inputs that exercise every part a create writes: subjects sent out of order and twice, in an order of
 * positions that is neither their codes' nor the order sent (TRAFIC_INFLUENCE 9 before OTHERS 99,
 * FAVORITISME 7 before EXTORSION 8), OTHERS and its precisions, accents, a date at a day's edge.
 */
const CREATES: Record<string, unknown>[] = [
  {},
  {
    partenaire: '/api/partenaires/IVY',
    subjects: [
      '/api/subjects/OTHERS',
      '/api/subjects/TRAFIC_INFLUENCE',
      '/api/subjects/FRAUDE',
      '/api/subjects/DETOURNEMENT',
      '/api/subjects/FRAUDE',
    ],
    autreObject: 'Vente de faux diplômes à Toliara',
    canalPrincipal: '/api/canals/OTHERS',
    autreCanalPrincipal: 'Lettre déposée au bureau',
    signalementAt: '2024-12-31T22:30:00Z',
  },
  {
    subjects: [
      '/api/subjects/ENRICHISSEMENT_ILLICITE',
      '/api/subjects/FAVORITISME',
      '/api/subjects/EXTORSION',
      '/api/subjects/CORRUPTION',
    ],
    autreObject: 'ignoré sans OTHERS',
    canalPrincipal: '/api/canals/EN_PERSONNE',
    autreCanalPrincipal: 'ignoré sans OTHERS',
  },
];

describe.each(await testEngines())('a create on %s', (engine) => {
  const { app: t, user } = serverSuite(engine);

  const idOf = async (code: string) => {
    const s = t.db.t.signalements;
    const [row] = await t.db.read.select({ id: s.id }).from(s).where(eq(s.code, code));
    return row!.id;
  };

  /** What the report's row holds, and what a read of its parts makes of it. */
  const writtenAndRead = async (code: string) => {
    const id = await idOf(code);
    const { signalements: s, signalementHistorique: h } = t.db.t;
    return t.db.transaction(async (tx) => {
      const [row] = await tx.select({ searchText: s.searchText }).from(s).where(eq(s.id, id));
      const history = await tx
        .select({ changes: h.changes })
        .from(h)
        .where(and(eq(h.signalementId, id), eq(h.action, 'creation')));
      const parts = (await readReportParts(t.db, tx, id))!;
      return {
        written: { searchText: row!.searchText, history: history.map((r) => r.changes) },
        read: {
          searchText: reportSearchText(
            {
              code: parts.row.s.code,
              description: parts.row.s.description,
              partenaire: parts.row.partenaire,
              subjects: parts.subjects,
              autreObject: parts.row.s.autreObject,
              places: [parts.row.region, parts.row.district, parts.row.commune],
              fokontany: parts.row.s.fokontany,
            },
            [],
          ),
          history: [diff({}, snapshotOf(parts).fields)],
        },
      };
    });
  };

  it.each(CREATES.map((overrides, i) => [i, overrides] as const))(
    'writes the search text and the history a read of the report gives (REST, case %i)',
    async (_i, overrides) => {
      const code = await createReport(t, user.cookie, overrides);
      const { written, read } = await writtenAndRead(code);
      expect(written).toEqual(read);
      expect(written.searchText).toContain(code.toLowerCase());
    },
  );

  it('writes the same through tRPC, whose answer is the code alone', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/signalements.create',
      headers: { cookie: user.cookie, ...SAME_ORIGIN, 'content-type': 'application/json' },
      payload: JSON.stringify({
        partenaire: 'IVY',
        subjects: ['NEGLIGENCE', 'ABUS_POUVOIR'],
        canalPrincipal: 'SMS',
        signalementAt: '2025-06-01',
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json().result.data;
    expect(Object.keys(answer)).toEqual(['code']);
    const { written, read } = await writtenAndRead(answer.code);
    expect(written).toEqual(read);
    expect(read.history[0]).toMatchObject({
      subjects: { from: null, to: ['Abus de pouvoir', 'Négligence'] },
    });
  });

  it('finds the new report by a word of its subjects, partner and precision (the search text is indexed)', async () => {
    const code = await createReport(t, user.cookie, CREATES[1]);
    for (const word of ['diplomes', 'detournement']) {
      const res = await t.app.inject({
        url: `/api/signalements?search=${word}`,
        headers: { cookie: user.cookie },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().member.map((r: { code: string }) => r.code)).toContain(code);
    }
  });

  it('answers by id only while the id is still that report’s, else by its code; a report gone is a 404', async () => {
    const actor = await sessionUserOf(t, user.email);
    const first = await createReport(t, user.cookie);
    const second = await createReport(t, user.cookie);
    const [firstId, secondId] = [await idOf(first), await idOf(second)];
    expect((await getCreated(t.db, actor, { code: first, id: firstId })).code).toBe(first);
    // A stored answer whose id now names another report (SQLite may give a deleted report's id again).
    expect((await getCreated(t.db, actor, { code: first, id: secondId })).code).toBe(first);
    // A stored answer of before the id was kept.
    expect((await getCreated(t.db, actor, { code: second })).code).toBe(second);
    await t.db.transaction(async (tx) => {
      await tx.delete(t.db.t.signalements).where(eq(t.db.t.signalements.id, secondId));
    });
    await expect(getCreated(t.db, actor, { code: second, id: secondId })).rejects.toMatchObject({
      message: 'Signalement non trouvé.',
    });
  });

  it('names the first unknown code: the partner, then the channel, then the subjects in the order sent', async () => {
    const post = (overrides: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/signalements',
        headers: { cookie: user.cookie, ...SAME_ORIGIN },
        payload: { ...MINIMAL_REPORT, ...overrides },
      });
    const cases: [Record<string, unknown>, string][] = [
      [
        {
          partenaire: '/api/partenaires/NOPE',
          canalPrincipal: '/api/canals/NOPE',
          subjects: ['/api/subjects/NOPE'],
        },
        'Partenaire introuvable : NOPE.',
      ],
      [{ canalPrincipal: '/api/canals/NOPE', subjects: ['/api/subjects/NOPE'] }, 'Canal introuvable : NOPE.'],
      [
        { subjects: ['/api/subjects/CORRUPTION', '/api/subjects/ZZZ', '/api/subjects/AAA'] },
        'Objet introuvable : ZZZ.',
      ],
    ];
    for (const [overrides, message] of cases) {
      const res = await post(overrides);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });
});
