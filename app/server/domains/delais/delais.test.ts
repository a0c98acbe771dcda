// Handling deadlines (docs/decisions/0032-deadlines.md) on both engines, with the services' clock fixed:
// the settings and their rights, a report going overdue, the filters, the sort, the dashboard's counts,
// and the recompute of a setting change in one transaction.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { createReport, mergePatch } from '#tests/helpers/signalements';

describe.each(await testEngines())('handling deadlines on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let agent: string;
  let agentCode: string;
  let now = new Date('2026-11-26T09:00:00Z'); // Thursday 26 November 2026, 12:00 in Madagascar
  const codes = { critique: '', faible: '', sans: '' };
  beforeAll(async () => {
    // On SQLite the list runs on the app's task thread, which reads this clock too (never the system's).
    t = await createTestApp(engine, {}, { clock: { now: () => now } });
    await t.user('chef@example.mg', 'ROLE_ADMIN', 'Rasoa Chef');
    agentCode = await t.user('agent@example.mg', 'ROLE_USER', 'Rabe Agent');
    admin = await t.login('chef@example.mg');
    agent = await t.login('agent@example.mg');
    // Filed on Thursday 26 November at 23:30 in Madagascar (20:30 UTC): the count starts on Friday 27.
    codes.critique = await createReport(t, agent, { signalementAt: '2026-11-26T20:30:00Z' });
    codes.faible = await createReport(t, agent, { signalementAt: '2026-11-26T20:30:00Z' });
    codes.sans = await createReport(t, agent, { signalementAt: '2026-11-20' });
    for (const [code, niveau] of [
      [codes.critique, '/api/niveaux/CRITIQUE'],
      [codes.faible, '/api/niveaux/FAIBLE'],
    ] as const) {
      const res = await mergePatch(t, agent, `/api/signalements/${code}`, { niveau });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  afterAll(async () => t?.close());

  const send = (cookie: string, method: 'GET' | 'PATCH' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: {
        cookie,
        'sec-fetch-site': 'same-origin',
        ...(method === 'PATCH' ? { 'content-type': 'application/merge-patch+json' } : {}),
      },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const trpcQuery = (cookie: string, path: string, input?: unknown) =>
    send(
      cookie,
      'GET',
      `/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
    );
  const echeanceOf = async (code: string) => {
    const res = await send(agent, 'GET', `/api/signalements/${code}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().echeance as string | null;
  };
  const listed = async (query: string) => {
    const res = await send(agent, 'GET', `/api/signalements?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as {
      member: Array<{ code: string; echeance: string | null }>;
      totalItems: number;
    };
    return { codes: body.member.map((m) => m.code), total: body.totalItems, member: body.member };
  };

  it('seeds the default deadlines and shows them to every staff member, the most serious first', async () => {
    const res = await send(agent, 'GET', '/api/delais_traitement');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body['@type']).toBe('Collection');
    expect(
      body.member.map((d: { niveau: { code: string }; jours: number | null }) => [d.niveau.code, d.jours]),
    ).toEqual([
      ['CRITIQUE', 7],
      ['ELEVE', 15],
      ['MOYEN', 30],
      ['FAIBLE', 60],
    ]);
    expect(body.member[0]['@id']).toBe('/api/delais_traitement/CRITIQUE');
    const viaTrpc = await trpcQuery(agent, 'delais.list');
    expect(viaTrpc.json().result.data).toEqual(body.member);
  });

  it('gives a report its due day in business days from the next business day, none without a niveau', async () => {
    // Friday 27 Nov + 6 business days: Mon 30, Tue 1, Wed 2, Thu 3, Fri 4, Mon 7 December.
    expect(await echeanceOf(codes.critique)).toBe('2026-12-07');
    expect(await echeanceOf(codes.sans)).toBeNull();
    const row = (await listed('order[echeance]=asc')).member.find((m) => m.code === codes.critique);
    expect(row?.echeance).toBe('2026-12-07');
  });

  it('puts a report overdue the day after its due day, by the services clock', async () => {
    expect((await listed('echeance=en_retard')).codes).toEqual([]);
    now = new Date('2026-12-07T20:00:00Z'); // 23:00 on the due day in Madagascar: still on time
    expect((await listed('echeance=en_retard')).codes).toEqual([]);
    expect((await listed('echeance=sous_7_jours')).codes).toEqual([codes.critique]);
    now = new Date('2026-12-07T21:00:00Z'); // midnight: 8 December in Madagascar
    const overdue = await listed('echeance=en_retard');
    expect(overdue.codes).toEqual([codes.critique]);
    expect(overdue.total).toBe(1);
    expect((await listed('echeance=sous_7_jours')).codes).toEqual([]);
    const viaTrpc = await trpcQuery(agent, 'signalements.list', { echeance: 'en_retard' });
    expect(viaTrpc.json().result.data.items.map((r: { code: string }) => r.code)).toEqual([codes.critique]);
  });

  it('sorts by due day, reports without a deadline last ascending and first descending', async () => {
    expect((await listed('order[echeance]=asc')).codes).toEqual([codes.critique, codes.faible, codes.sans]);
    expect((await listed('order[echeance]=desc')).codes).toEqual([codes.sans, codes.faible, codes.critique]);
  });

  it('counts my overdue reports, and every overdue report for administrators', async () => {
    const assign = await send(agent, 'POST', `/api/signalements/${codes.critique}/assignes`, {
      utilisateur: `/api/utilisateurs/${agentCode}`,
    });
    expect(assign.statusCode, assign.body).toBe(201);
    const mine = await send(agent, 'GET', '/api/dashboard/mes-dossiers');
    expect(mine.json()).toEqual({ ouverts: 1, enRetard: 1, nonAssignes: null, enRetardTous: null });
    const all = await trpcQuery(admin, 'dashboard.myCases');
    expect(all.json().result.data).toEqual({ ouverts: 0, enRetard: 0, nonAssignes: 2, enRetardTous: 1 });
  });

  it('has no deadline once treated or closed, and gets it back when reopened', async () => {
    for (const statut of ['TRAITE', 'CLOTURE']) {
      await mergePatch(t, agent, `/api/signalements/${codes.critique}`, { statut: `/api/statuts/${statut}` });
      expect(await echeanceOf(codes.critique)).toBeNull();
      expect((await listed('echeance=en_retard')).codes).toEqual([]);
    }
    await mergePatch(t, agent, `/api/signalements/${codes.critique}`, { statut: '/api/statuts/EN_COURS' });
    expect(await echeanceOf(codes.critique)).toBe('2026-12-07');
  });

  it('lets only administrators change a deadline, with French messages for bad values', async () => {
    const refused = await send(agent, 'PATCH', '/api/delais_traitement/CRITIQUE', { jours: 10 });
    expect(refused.statusCode).toBe(403);
    const refusedTrpc = await send(agent, 'POST', '/trpc/delais.update', {
      delais: [{ niveau: 'CRITIQUE', jours: 10 }],
    });
    expect(refusedTrpc.statusCode).toBe(403);
    for (const jours of [0, 366, 1.5, -3, 'abc', '7 jours', true, {}]) {
      const res = await send(admin, 'PATCH', '/api/delais_traitement/CRITIQUE', { jours });
      expect(res.statusCode, `${JSON.stringify(jours)}: ${res.body}`).toBe(400);
      expect(res.body).toContain('Le délai doit être un nombre entier de jours ouvrés, de 1 à 365');
    }
    const unknown = await send(admin, 'PATCH', '/api/delais_traitement/INCONNU', { jours: 5 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('Niveau introuvable');
    expect(await echeanceOf(codes.critique)).toBe('2026-12-07');
  });

  it('recomputes the due days of the niveau when its deadline changes, and logs the change', async () => {
    const res = await send(admin, 'PATCH', '/api/delais_traitement/CRITIQUE', { jours: 10 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ jours: 10, niveau: { code: 'CRITIQUE' } });
    // Friday 27 Nov + 9 business days: … Thursday 10 December.
    expect(await echeanceOf(codes.critique)).toBe('2026-12-10');
    expect((await listed('echeance=en_retard')).codes).toEqual([]);
    // No deadline for « Faible » (empty in the form): its reports have none.
    const none = await send(admin, 'POST', '/trpc/delais.update', {
      delais: [
        { niveau: 'FAIBLE', jours: '' },
        { niveau: 'CRITIQUE', jours: '3' },
      ],
    });
    expect(none.statusCode, none.body).toBe(200);
    expect(await echeanceOf(codes.faible)).toBeNull();
    // Friday 27 Nov + 2: Monday 30 Nov, Tuesday 1 December.
    expect(await echeanceOf(codes.critique)).toBe('2026-12-01');
    const log = await t.db.read
      .select({ kind: t.db.t.accessLog.kind, details: t.db.t.accessLog.details })
      .from(t.db.t.accessLog)
      .where(sql`${t.db.t.accessLog.kind} = 'parametres'`)
      .orderBy(t.db.t.accessLog.id);
    expect(log.map((l) => l.details)).toEqual([
      { parametre: 'delai_traitement', niveau: 'CRITIQUE', avant: 7, apres: 10 },
      { parametre: 'delai_traitement', niveau: 'FAIBLE', avant: 60, apres: null },
      { parametre: 'delai_traitement', niveau: 'CRITIQUE', avant: 10, apres: 3 },
    ]);
  });

  it('changes nothing when the recompute fails midway: the setting, the log and the due days stay', async () => {
    const logCount = async () =>
      (
        await t.db.rows<{ n: unknown }>(sql`select count(*) as n from access_log where kind = 'parametres'`)
      )[0]!.n;
    const before = Number(await logCount());
    await t.db.execute(sql`alter table business_days rename to business_days_away`);
    try {
      const res = await send(admin, 'PATCH', '/api/delais_traitement/CRITIQUE', { jours: 20 });
      expect(res.statusCode).toBe(500);
    } finally {
      await t.db.execute(sql`alter table business_days_away rename to business_days`);
    }
    const setting = await send(agent, 'GET', '/api/delais_traitement/CRITIQUE');
    expect(setting.json().jours).toBe(3);
    expect(Number(await logCount())).toBe(before);
    expect(await echeanceOf(codes.critique)).toBe('2026-12-01');
  });
});
