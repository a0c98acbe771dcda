import { businessDay, DEFAULT_BUSINESS_TIME_ZONE } from '#shared/calendar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { perDay } from './service';
import { insertFixture, type Fixture } from './test-fixture';

describe.each(await testEngines())('dashboard calls on %s', (engine) => {
  let t: TestApp;
  let cookie: string;
  let f: Fixture;
  beforeAll(async () => {
    t = await createTestApp(engine);
    const u1 = await t.user('agent@example.mg', 'ROLE_USER', 'Rabe Hery');
    const u2 = await t.user('analyste@example.mg', 'ROLE_ANALYSTE', 'Rasoa Vola');
    f = await insertFixture(t.db, { u1, u2 });
    cookie = await t.login('agent@example.mg');
  });
  afterAll(async () => t?.close());

  const get = async (path: string, query = '') => {
    const res = await t.app.inject({
      url: `/api/dashboard/${path}${query ? `?${query}` : ''}`,
      headers: { cookie },
    });
    return { status: res.statusCode, body: res.json() };
  };
  const ok = async (path: string, query = '') => {
    const res = await get(path, query);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const trpc = async (path: string, input: unknown) => {
    const res = await t.app.inject({
      url: `/trpc/dashboard.${path}?input=${encodeURIComponent(JSON.stringify(input))}`,
      headers: { cookie },
    });
    return { status: res.statusCode, body: res.json() };
  };
  const MARCH = 'dateStart=2025-03-01&dateEnd=2025-03-05';
  const EMPTY = 'dateStart=2024-01-01&dateEnd=2024-01-03';
  const DAY = 'dateStart=2025-03-01&dateEnd=2025-03-01';

  it('counts total, treated, in progress and closed from the statut kinds', async () => {
    // Treated: R2 (TRAITE), R3 (CLOTURE), R5 (REJETE, kind closed); closed: R3, R5; R1 is NOUVEAU, R4 has none.
    expect(await ok('key-metrics')).toEqual({ total: 5, treated: 3, inProgress: 2, closed: 2 });
    expect(await ok('key-metrics', MARCH)).toEqual({ total: 4, treated: 2, inProgress: 2, closed: 1 });
    // Both instants of 1 March (00:00:00.000 and 23:59:59.999) count; 28 February 23:59:59 does not.
    expect(await ok('key-metrics', DAY)).toEqual({ total: 2, treated: 1, inProgress: 1, closed: 0 });
    expect(await ok('key-metrics', EMPTY)).toEqual({ total: 0, treated: 0, inProgress: 0, closed: 0 });
    expect(await ok('key-metrics', 'dateStart=2025-03-02')).toEqual({
      total: 2,
      treated: 1,
      inProgress: 1,
      closed: 1,
    });
    expect(await ok('key-metrics', 'dateEnd=2025-02-28')).toEqual({
      total: 1,
      treated: 1,
      inProgress: 0,
      closed: 1,
    });
  });

  it('counts per region, district and commune with their coordinates, zeros included, reports without location left out', async () => {
    const regions = await ok('count-per-localisation');
    expect(regions).toHaveLength(24);
    expect(regions.slice(0, 2)).toEqual([
      {
        id: f.regionA,
        designation: 'Analamanga',
        latitude: expect.any(Number),
        longitude: expect.any(Number),
        signalementCount: 3,
      },
      {
        id: f.regionB,
        designation: 'Vakinankaratra',
        latitude: expect.any(Number),
        longitude: expect.any(Number),
        signalementCount: 1,
      },
    ]);
    expect(regions.slice(2).every((r: { signalementCount: number }) => r.signalementCount === 0)).toBe(true);
    expect(regions[0].latitude).toBeCloseTo(-18.42517, 4);

    const districts = await ok('count-per-localisation', 'type=District');
    expect(districts).toHaveLength(119);
    expect(districts[0]).toMatchObject({ id: f.districtX, signalementCount: 2 });
    expect(districts[1].signalementCount).toBe(0);

    const communes = await ok('count-per-localisation', `type=Commune&${DAY}`);
    expect(communes).toHaveLength(1579);
    expect(communes[0]).toMatchObject({ id: f.communeC, signalementCount: 1 });
    expect(
      communes.reduce((sum: number, c: { signalementCount: number }) => sum + c.signalementCount, 0),
    ).toBe(1);

    const empty = await ok('count-per-localisation', `type=Region&${EMPTY}`);
    expect(empty.every((r: { signalementCount: number }) => r.signalementCount === 0)).toBe(true);
  });

  it('counts per main channel in the reference order, reports without channel left out', async () => {
    const all = await ok('count-per-canal-principal');
    expect(all.slice(0, 3)).toEqual([
      { id: 'TELEPHONE', designation: 'Téléphone', signalementCount: 3 },
      { id: 'EMAIL', designation: 'Email', signalementCount: 1 },
      { id: 'EN_PERSONNE', designation: 'En personne', signalementCount: 0 },
    ]);
    expect(all).toHaveLength(8);
    const day = await ok('count-per-canal-principal', DAY);
    expect(day.filter((c: { signalementCount: number }) => c.signalementCount > 0)).toEqual([
      { id: 'TELEPHONE', designation: 'Téléphone', signalementCount: 1 },
      { id: 'EMAIL', designation: 'Email', signalementCount: 1 },
    ]);
  });

  it('counts per subject, a report counting once for each of its subjects', async () => {
    const all = await ok('count-per-subject');
    expect(all.slice(0, 3)).toEqual([
      { sujet: { code: 'CORRUPTION', designation: 'Corruption' }, count: 3 },
      { sujet: { code: 'FRAUDE', designation: 'Fraude' }, count: 2 },
      { sujet: { code: 'DETOURNEMENT', designation: 'Détournement de deniers publics' }, count: 1 },
    ]);
    expect(all.slice(3).every((s: { count: number }) => s.count === 0)).toBe(true);
    const march = await ok('count-per-subject', MARCH);
    expect(
      march.slice(0, 3).map((s: { sujet: { code: string }; count: number }) => [s.sujet.code, s.count]),
    ).toEqual([
      ['CORRUPTION', 3],
      ['DETOURNEMENT', 1],
      ['FRAUDE', 1],
    ]);
    // A range that covers every report answers like no range.
    expect(await ok('count-per-subject', 'dateStart=2000-01-01&dateEnd=2030-12-31')).toEqual(all);
    expect((await ok('count-per-subject', EMPTY)).every((s: { count: number }) => s.count === 0)).toBe(true);
  });

  it('counts per niveau by rank with its colour, reports without niveau left out', async () => {
    expect(await ok('count-per-niveau')).toEqual([
      { niv: { code: 'FAIBLE', designation: 'Faible', color: '#22c55e' }, count: 1 },
      { niv: { code: 'MOYEN', designation: 'Moyen', color: '#f59e0b' }, count: 0 },
      { niv: { code: 'ELEVE', designation: 'Élevé', color: '#f97316' }, count: 0 },
      { niv: { code: 'CRITIQUE', designation: 'Critique', color: '#ef4444' }, count: 2 },
    ]);
    const day = await ok('count-per-niveau', DAY);
    expect(day.map((n: { count: number }) => n.count)).toEqual([1, 0, 0, 1]);
  });

  it('counts per resultat with its code', async () => {
    const all = await ok('count-per-resultat');
    expect(all).toEqual([
      { result: { code: 'RESULTAT_AVERE', designation: 'Avéré' }, count: 1 },
      { result: { code: 'RESULTAT_NON_AVERE', designation: 'Non avéré' }, count: 1 },
      { result: { code: 'RESULTAT_PARTIELLEMENT_AVERE', designation: 'Partiellement avéré' }, count: 0 },
      { result: { code: 'RESULTAT_NON_DETERMINE', designation: 'Non déterminé' }, count: 0 },
      { result: { code: 'RESULTAT_FAUX_SIGNALEMENT', designation: 'Faux signalement' }, count: 1 },
    ]);
    expect((await ok('count-per-resultat', EMPTY)).map((r: { count: number }) => r.count)).toEqual([
      0, 0, 0, 0, 0,
    ]);
  });

  it('gives every day of the range, 0 for days without reports', async () => {
    expect(await ok('signalement-per-jour', MARCH)).toEqual({
      '2025-03-01': 2,
      '2025-03-02': 0,
      '2025-03-03': 1,
      '2025-03-04': 0,
      '2025-03-05': 1,
    });
    expect(await ok('signalement-per-jour', DAY)).toEqual({ '2025-03-01': 2 });
    expect(await ok('signalement-per-jour', EMPTY)).toEqual({
      '2024-01-01': 0,
      '2024-01-02': 0,
      '2024-01-03': 0,
    });
  });

  it('runs the daily chart without range from the first report to today, and caps it', async () => {
    const now = new Date('2025-03-07T10:00:00Z');
    expect(await perDay(t.ctx, undefined, now)).toEqual({
      '2025-02-28': 1,
      '2025-03-01': 2,
      '2025-03-02': 0,
      '2025-03-03': 1,
      '2025-03-04': 0,
      '2025-03-05': 1,
      '2025-03-06': 0,
      '2025-03-07': 0,
    });
    const later = await perDay(t.ctx, undefined, new Date('2028-01-01T00:00:00Z'));
    const days = Object.keys(later);
    expect(days).toHaveLength(731);
    expect(days.at(-1)).toBe('2028-01-01');
    expect(await perDay(t.ctx, { dateEnd: '2025-03-01' }, now)).toEqual({ '2025-02-28': 1, '2025-03-01': 2 });
    const fromRest = await ok('signalement-per-jour');
    expect(Object.keys(fromRest)[0]).toBe('2025-02-28');
    expect(Object.keys(fromRest).at(-1)).toBe(businessDay(new Date(), DEFAULT_BUSINESS_TIME_ZONE));
    expect(Object.values(fromRest).reduce((a, b) => Number(a) + Number(b), 0)).toBe(5);
  });

  it('refuses bad dates and a start after the end with a French 400 on REST and tRPC', async () => {
    const cases: Array<[string, string]> = [
      ['dateStart=2025-13-01', 'La date de début est invalide'],
      ['dateStart=2025-02-30', 'La date de début est invalide'],
      ['dateEnd=01/03/2025', 'La date de fin est invalide'],
      [
        'dateStart=2025-03-05&dateEnd=2025-03-01',
        'La date de début doit être antérieure ou égale à la date de fin.',
      ],
    ];
    for (const path of [
      'key-metrics',
      'count-per-localisation',
      'count-per-canal-principal',
      'signalement-per-jour',
      'count-per-subject',
      'count-per-niveau',
      'count-per-resultat',
    ]) {
      for (const [query, message] of cases) {
        const res = await get(path, query);
        expect(res.status, `${path}?${query}`).toBe(400);
        expect(res.body.message).toContain(message);
      }
    }
    const badType = await get('count-per-localisation', 'type=Pays');
    expect(badType).toEqual({
      status: 400,
      body: expect.objectContaining({
        message: 'Le type de localisation doit valoir Region, District ou Commune.',
      }),
    });
    const tooLong = await get('signalement-per-jour', 'dateStart=1990-01-01&dateEnd=2025-01-01');
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe(
      'La période demandée est trop longue pour le graphique journalier (3 660 jours au plus).',
    );

    const bad = await trpc('keyMetrics', { dateStart: '2025-03-05', dateEnd: '2025-03-01' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('La date de début doit être antérieure ou égale à la date de fin.');
  });

  it('answers the same figures through tRPC', async () => {
    const metrics = await trpc('keyMetrics', { dateStart: '2025-03-01', dateEnd: '2025-03-05' });
    expect(metrics.body.result.data).toEqual({ total: 4, treated: 2, inProgress: 2, closed: 1 });
    const regions = await trpc('perLocalisation', { type: 'Region' });
    expect(regions.body.result.data).toEqual(await ok('count-per-localisation'));
    const days = await trpc('perDay', { dateStart: '2025-03-01', dateEnd: '2025-03-02' });
    expect(days.body.result.data).toEqual({ '2025-03-01': 2, '2025-03-02': 0 });
  });

  it('requires a session on every dashboard route', async () => {
    for (const path of ['key-metrics', 'count-per-localisation', 'signalement-per-jour', 'mes-dossiers']) {
      const res = await t.app.inject({ url: `/api/dashboard/${path}` });
      expect(res.statusCode).toBe(401);
    }
    const { appRouter } = await import('#server/trpc/router');
    const procedures = Object.keys(appRouter._def.procedures).filter((p) => p.startsWith('dashboard.'));
    expect(procedures).toHaveLength(14);
    for (const path of procedures)
      expect((await t.app.inject({ url: `/trpc/${path}` })).statusCode, path).toBe(401);
  });
});
