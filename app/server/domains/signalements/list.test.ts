import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { createReport, mergePatch } from '#tests/helpers/signalements';
import { countSignalements, filterConditions, type FilterPlan } from './queries';

describe.each(await testEngines())('report list, filters and search on %s', (engine) => {
  let t: TestApp;
  let a: string;
  let b: string;
  let userB: string;
  const codes: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestApp(engine);
    await t.user('a@example.mg', 'ROLE_USER', 'Agent A');
    userB = await t.user('b@example.mg', 'ROLE_USER', 'Agent B');
    a = await t.login('a@example.mg');
    b = await t.login('b@example.mg');
    await t.db.transaction((tx) =>
      tx
        .insert(t.db.t.partenaires)
        .values({ code: 'MINSAN', designation: 'Ministère de la Santé', initial: 'MS', color: '#10b981' }),
    );
    codes.old = await createReport(t, a, {
      signalementAt: '2024-01-15',
      subjects: ['/api/subjects/DETOURNEMENT'],
    });
    // 23:30 on 30 June in Madagascar (UTC+3): the last half-hour of the day the 'before' bound includes.
    codes.mid = await createReport(t, a, {
      signalementAt: '2024-06-30T20:30:00Z',
      partenaire: '/api/partenaires/MINSAN',
    });
    codes.recent = await createReport(t, b, {
      signalementAt: '2025-02-01',
      subjects: ['/api/subjects/FRAUDE', '/api/subjects/CORRUPTION'],
    });
    await mergePatch(t, a, `/api/signalements/${codes.old}`, {
      description: 'Détournement de la caisse à Toliara',
    });
    await mergePatch(t, a, `/api/signalements/${codes.mid}/localisation`, { region: '/api/regions/MG11' });
    const auteur = await t.app.inject({
      method: 'POST',
      url: '/api/presume_auteurs',
      headers: { cookie: b },
      payload: { nomPrenom: 'Randrianarisoa Éloi', signalement: `/api/signalements/${codes.recent}` },
    });
    expect(auteur.statusCode).toBe(201);
  });
  afterAll(async () => t?.close());

  const list = async (query = '') => {
    const res = await t.app.inject({ url: `/api/signalements${query}`, headers: { cookie: a } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      member: Array<{ code: string }>;
      totalItems: number;
      view?: Record<string, string>;
    };
  };
  const codesOf = async (query: string) => (await list(query)).member.map((m) => m.code);

  it('lists newest first by default as a JSON-LD collection', async () => {
    const body = await list();
    expect(body).toMatchObject({
      '@context': '/api/contexts/Signalement',
      '@type': 'Collection',
      totalItems: 3,
    });
    expect(body.member.map((m) => m.code)).toEqual([codes.recent, codes.mid, codes.old]);
  });

  it('paginates with page and itemsPerPage and links first/last/next/previous', async () => {
    const page2 = await list('?page=2&itemsPerPage=1');
    expect(page2.member.map((m) => m.code)).toEqual([codes.mid]);
    expect(page2.view).toMatchObject({
      first: '/api/signalements?page=1&itemsPerPage=1',
      last: '/api/signalements?page=3&itemsPerPage=1',
      next: '/api/signalements?page=3&itemsPerPage=1',
      previous: '/api/signalements?page=1&itemsPerPage=1',
    });
  });

  it('sorts by code and by partner designation', async () => {
    const byCode = await codesOf('?order[code]=desc');
    expect(byCode).toEqual([...byCode].sort().reverse());
    const byPartner = await codesOf('?order[partenaire.designation]=desc');
    expect(byPartner[0]).toBe(codes.mid);
  });

  it('filters by partner, subjects, creator, region and dates (before includes its whole day)', async () => {
    expect(await codesOf('?partenaire.code[]=MINSAN')).toEqual([codes.mid]);
    expect(await codesOf('?subjects.code[]=FRAUDE&subjects.code[]=DETOURNEMENT')).toEqual([
      codes.recent,
      codes.old,
    ]);
    expect(await codesOf(`?createdBy.code[]=${userB}`)).toEqual([codes.recent]);
    expect(await codesOf('?region.code=MG11')).toEqual([codes.mid]);
    expect(await codesOf('?signalementAt[after]=2024-06-01&signalementAt[before]=2024-06-30')).toEqual([
      codes.mid,
    ]);
    expect(await codesOf('?signalementAt[before]=2024-06-29')).toEqual([codes.old]);
    expect(await codesOf('?signalementAt[after]=2024-07-01')).toEqual([codes.recent]);
    expect(await codesOf('?district.code=MG11101')).toEqual([]);
  });

  it('searches case- and accent-insensitively over description, partner, subjects, location and names', async () => {
    expect(await codesOf('?search=detournement')).toEqual([codes.old]);
    expect(await codesOf('?search=TOLIARA')).toEqual([codes.old]);
    expect(await codesOf('?search=sante')).toEqual([codes.mid]);
    expect(await codesOf('?search=analamanga')).toEqual([codes.mid]);
    expect(await codesOf('?search=eloi')).toEqual([codes.recent]);
    expect(await codesOf(`?search=${codes.recent!.toLowerCase()}`)).toEqual([codes.recent]);
    expect(await codesOf('?search=fraude%20randrianarisoa')).toEqual([codes.recent]);
    expect(await codesOf('?search=introuvable')).toEqual([]);
    // LIKE wildcards are not search terms: a search made only of them filters nothing.
    expect(await codesOf('?search=%25_')).toHaveLength(3);
    expect(await codesOf('?search=tol%25iara')).toEqual([codes.old]);
  });

  it('finds the same reports whichever search plan the list picks (index or scan, set or page)', async () => {
    const s = t.db.t.signalements;
    const ids = async (search: string, plan: FilterPlan) =>
      (
        await t.db.read
          .select({ id: s.id })
          .from(s)
          .where(await filterConditions(t.ctx, { search }, plan))
      )
        .map((r) => r.id)
        .sort();
    for (const term of [
      'detournement',
      'TOLIARA',
      'eloi',
      'ra',
      'fraude randrianarisoa',
      'sante',
      'introuvable',
    ]) {
      const reference = await ids(term, { mode: 'set' });
      expect(await ids(term, { mode: 'page', searchStrategy: 'scan' }), term).toEqual(reference);
      expect(await ids(term, { mode: 'page', searchStrategy: 'index' }), term).toEqual(reference);
      // The count (on SQLite straight from the FTS index when the search is the only filter) agrees.
      expect(await countSignalements(t.ctx, { search: term }), term).toBe(reference.length);
      expect(await countSignalements(t.ctx, { search: term, page: 2, itemsPerPage: 20 } as never), term).toBe(
        reference.length,
      );
    }
    const bySubject = async (plan: FilterPlan) =>
      (
        await t.db.read
          .select({ id: s.id })
          .from(s)
          .where(await filterConditions(t.ctx, { 'subjects.code': ['FRAUDE', 'DETOURNEMENT'] }, plan))
      ).length;
    expect(await bySubject({ mode: 'page' })).toBe(2);
    expect(await bySubject({ mode: 'set' })).toBe(2);
    expect(
      await countSignalements(t.ctx, { 'subjects.code': ['FRAUDE', 'CORRUPTION', 'DETOURNEMENT'] }),
    ).toBe(3);
    expect(
      await countSignalements(t.ctx, { 'subjects.code': ['FRAUDE'], 'partenaire.code': ['MINSAN'] }),
    ).toBe(0);
    // As the list calls it, with paging and sort in the query.
    const listed = {
      'subjects.code': ['FRAUDE'],
      page: 1,
      itemsPerPage: 20,
      order: { code: 'desc' as const },
    };
    expect(await countSignalements(t.ctx, listed)).toBe(1);
  });

  it('updates the search after a person is removed', async () => {
    const auteurs = (
      await t.app.inject({ url: `/api/signalements/${codes.recent}/auteurs`, headers: { cookie: b } })
    ).json();
    await t.app.inject({ method: 'DELETE', url: auteurs.presumeAuteurs[0]['@id'], headers: { cookie: b } });
    expect(await codesOf('?search=eloi')).toEqual([]);
  });

  it('answers bad filters with a 400, not a 500', async () => {
    const res = await t.app.inject({
      url: '/api/signalements?signalementAt[after]=hier',
      headers: { cookie: a },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Date invalide.');
    expect((await t.app.inject({ url: '/api/signalements?page=0', headers: { cookie: a } })).statusCode).toBe(
      400,
    );
  });

  it('offers the same list through tRPC', async () => {
    const input = encodeURIComponent(JSON.stringify({ 'partenaire.code': ['MINSAN'] }));
    const res = await t.app.inject({ url: `/trpc/signalements.list?input=${input}`, headers: { cookie: a } });
    expect(res.json().result.data).toMatchObject({ total: 1, items: [{ code: codes.mid }] });
  });
});
