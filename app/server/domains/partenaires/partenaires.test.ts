import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { serverSuite } from '#tests/helpers/suite';
import { PARTNER_PALETTE } from './naming';

describe.each(await testEngines())('partners on %s', (engine) => {
  const { app: t, admin, user: agent } = serverSuite(engine);
  let agentId: number;

  beforeAll(async () => {
    agentId = (
      await t.db.read
        .select()
        .from(t.db.t.utilisateurs)
        .where(eq(t.db.t.utilisateurs.email, 'agent@example.mg'))
    )[0]!.id;
  });

  const send = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    cookie = admin.cookie,
    payload?: object,
  ) => t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const trpc = (path: string, cookie: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/trpc/${path}`, headers: { cookie }, payload });
  const create = (designation: string, extra: object = {}) =>
    send('POST', '/api/partenaires', admin.cookie, {
      designation,
      email: 'contact@partenaire.mg',
      phoneNumber: '',
      ...extra,
    });
  const partnerId = async (code: string) =>
    (await t.db.read.select().from(t.db.t.partenaires).where(eq(t.db.t.partenaires.code, code)))[0]!.id;

  it('creates a partner with a code and initial from its designation, a palette colour and a +261 phone', async () => {
    const res = await create('Ministère de la Justice', {
      email: ' Greffe@Justice.mg ',
      phoneNumber: '34 12 345 67',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      '@id': '/api/partenaires/MINJUS',
      '@type': 'Partenaire',
      code: 'MINJUS',
      designation: 'Ministère de la Justice',
      email: 'Greffe@Justice.mg',
      phoneNumber: '+261341234567',
      initial: 'MJ',
      color: expect.any(String),
      projectsCount: 0,
      signalementsCount: 0,
    });
    expect(PARTNER_PALETTE).toContain(res.json().color);
  });

  it('keeps codes unique (MINJUS2, MINJUS3) and spreads the colours over the palette', async () => {
    const second = await create('Ministère de la Justice');
    const third = await trpc('partenaires.create', admin.cookie, {
      designation: 'Ministère  de  la Justice',
      email: 'a@b.mg',
      phoneNumber: '+261320000000',
    });
    expect(second.json().code).toBe('MINJUS2');
    expect(third.json().result.data).toMatchObject({
      code: 'MINJUS3',
      phoneNumber: '+261320000000',
      '@id': '/api/partenaires/MINJUS3',
    });
    const colours = [
      (await send('GET', '/api/partenaires/MINJUS')).json().color,
      second.json().color,
      third.json().result.data.color,
    ];
    expect(new Set(colours).size).toBe(3);
    const single = await create('Médiature');
    expect(single.json()).toMatchObject({ code: 'MEDIATUR', initial: 'ME' });
  });

  it('creates one distinct code each when the same designation is submitted at the same moment', async () => {
    const results = await Promise.all([
      create('Cour des Comptes'),
      create('Cour des Comptes'),
      create('Cour des Comptes'),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    expect(results.map((r) => r.json().code).sort()).toEqual(['COUCOM', 'COUCOM2', 'COUCOM3']);
  });

  it('validates the form on the server with the French messages of §5', async () => {
    const cases: Array<[object, string]> = [
      [{ designation: 'A', email: 'a@b.mg' }, 'La désignation doit contenir au moins 2 caractères.'],
      [{ email: 'a@b.mg' }, 'La désignation doit contenir au moins 2 caractères.'],
      [{ designation: 'Bianco', email: 'pas-un-email' }, "L'adresse email n'est pas valide."],
      [{ designation: 'Bianco', email: '' }, "L'adresse email n'est pas valide."],
      [
        { designation: 'Bianco', email: 'a@b.mg', phoneNumber: '12345678' },
        'Le numéro de téléphone doit contenir exactement 9 chiffres.',
      ],
      [
        { designation: 'Bianco', email: 'a@b.mg', phoneNumber: '+2613412345678' },
        'Le numéro de téléphone doit contenir exactement 9 chiffres.',
      ],
      [
        { designation: 'Bianco', email: 'a@b.mg', phoneNumber: '34a123456' },
        'Le numéro de téléphone doit contenir exactement 9 chiffres.',
      ],
      [
        { designation: 'Bianco', email: 'a@b.mg', phoneNumber: '+261 34 12-345' },
        'Le numéro de téléphone doit contenir exactement 9 chiffres.',
      ],
      [
        { designation: 'Bianco', email: 'a@b.mg', phoneNumber: '261341234567' },
        'Le numéro de téléphone doit contenir exactement 9 chiffres.',
      ],
    ];
    for (const [payload, message] of cases) {
      const res = await send('POST', '/api/partenaires', admin.cookie, payload);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const viaTrpc = await trpc('partenaires.create', admin.cookie, {
      designation: 'Bianco',
      email: 'a@b.mg',
      phoneNumber: '1',
    });
    expect(viaTrpc.statusCode).toBe(400);
    expect(viaTrpc.json().error.message).toBe('Le numéro de téléphone doit contenir exactement 9 chiffres.');
  });

  it('searches partners ignoring accents and case, like the report search', async () => {
    await create('Comité Intégrité Œuvre', { email: 'integrite@comite.mg' });
    const found = async (search: string) =>
      (await send('GET', `/api/partenaires?search=${encodeURIComponent(search)}`, agent.cookie))
        .json()
        .member.map((p: { designation: string }) => p.designation);
    for (const search of ['integrite', 'intégrité', 'INTEGRITÉ', 'comite integ', 'oeuvre'])
      expect(await found(search), search).toEqual(['Comité Intégrité Œuvre']);
    expect(await found('intégritée')).toEqual([]);
  });

  it('lets any logged-in user read partners, 10 per page by default, searching name, code and e-mail', async () => {
    for (let i = 0; i < 12; i++)
      await create(`Zeta Partenaire ${String(i).padStart(2, '0')}`, { email: `zeta${i}@zeta.mg` });
    const page = await send('GET', '/api/partenaires?search=zeta', agent.cookie);
    expect(page.statusCode).toBe(200);
    const body = page.json();
    expect(body).toMatchObject({ '@type': 'Collection', totalItems: 12 });
    expect(body.member).toHaveLength(10);
    expect(body.member[0].designation).toBe('Zeta Partenaire 00');
    expect(body.view.next).toBe('/api/partenaires?search=zeta&page=2');
    expect((await send('GET', '/api/partenaires?search=ZETA11%40', agent.cookie)).json().totalItems).toBe(1);
    expect(
      (await send('GET', '/api/partenaires?search=minjus3', agent.cookie))
        .json()
        .member.map((p: { code: string }) => p.code),
    ).toEqual(['MINJUS3']);
    expect((await send('GET', '/api/partenaires?search=100%25', agent.cookie)).json().totalItems).toBe(0);
    const big = await send('GET', '/api/partenaires?itemsPerPage=500', agent.cookie);
    expect(big.json().member.length).toBe(big.json().totalItems);
    expect(big.json().member.some((p: { code: string }) => p.code === 'IVY')).toBe(true);
    expect((await send('GET', '/api/partenaires?itemsPerPage=501', agent.cookie)).statusCode).toBe(400);
    const input = encodeURIComponent(JSON.stringify({ search: 'zeta', page: 2 }));
    const viaTrpc = await t.app.inject({
      url: `/trpc/partenaires.list?input=${input}`,
      headers: { cookie: agent.cookie },
    });
    expect(viaTrpc.json().result.data.total).toBe(12);
    expect(viaTrpc.json().result.data.items.map((p: { designation: string }) => p.designation)).toEqual([
      'Zeta Partenaire 10',
      'Zeta Partenaire 11',
    ]);
    expect((await t.app.inject({ url: '/api/partenaires' })).statusCode).toBe(401);
  });

  it('keeps creating, editing and deleting partners for administrators, on both doors', async () => {
    const payload = { designation: 'Pirate', email: 'a@b.mg' };
    expect((await send('POST', '/api/partenaires', agent.cookie, payload)).statusCode).toBe(403);
    expect((await send('PUT', '/api/partenaires/MINJUS', agent.cookie, payload)).statusCode).toBe(403);
    expect((await send('DELETE', '/api/partenaires/MEDIATUR', agent.cookie)).statusCode).toBe(403);
    expect((await trpc('partenaires.create', agent.cookie, payload)).statusCode).toBe(403);
    expect((await trpc('partenaires.update', agent.cookie, { code: 'MINJUS', ...payload })).statusCode).toBe(
      403,
    );
    expect((await trpc('partenaires.delete', agent.cookie, { code: 'MEDIATUR' })).statusCode).toBe(403);
    expect((await send('GET', '/api/partenaires/MEDIATUR', agent.cookie)).statusCode).toBe(200);
  });

  it('edits designation, e-mail and phone by PUT; code, initial and colour stay', async () => {
    const before = (await send('GET', '/api/partenaires/MINJUS')).json();
    const res = await send('PUT', '/api/partenaires/MINJUS', admin.cookie, {
      designation: 'Ministère de la Justice et des Libertés',
      email: 'dg@justice.mg',
      phoneNumber: '',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ...before,
      designation: 'Ministère de la Justice et des Libertés',
      email: 'dg@justice.mg',
      phoneNumber: null,
    });
    const viaTrpc = await trpc('partenaires.update', admin.cookie, {
      code: 'MINJUS',
      designation: 'Ministère de la Justice',
      email: 'dg@justice.mg',
      phoneNumber: '331234567',
    });
    expect(viaTrpc.json().result.data).toMatchObject({
      code: 'MINJUS',
      phoneNumber: '+261331234567',
      initial: 'MJ',
      color: before.color,
    });
    expect(
      (await send('PUT', '/api/partenaires/INCONNU', admin.cookie, { designation: 'Xx', email: 'a@b.mg' }))
        .statusCode,
    ).toBe(404);
    const bad = await send('PUT', '/api/partenaires/MINJUS', admin.cookie, {
      designation: 'X',
      email: 'a@b.mg',
    });
    expect(bad.json().message).toBe('La désignation doit contenir au moins 2 caractères.');
  });

  it('counts projects and reports, and refuses (409) to delete a partner that has any', async () => {
    const withProject = await partnerId('MINJUS2');
    const withReport = await partnerId('MINJUS3');
    await t.db.transaction(async (tx) => {
      await tx
        .insert(t.db.t.projects)
        .values({ code: 'PRJ-1', sigle: 'P1', designation: 'Projet 1', ownerId: withProject });
      await tx
        .insert(t.db.t.projects)
        .values({ code: 'PRJ-2', sigle: 'P2', designation: 'Projet 2', ownerId: withProject });
      for (const code of ['SIG-0000-0001', 'SIG-0000-0002', 'SIG-0000-0003']) {
        await tx
          .insert(t.db.t.signalements)
          .values({ code, signalementAt: new Date(), createdById: agentId, partenaireId: withReport });
      }
    });
    const list = (await send('GET', '/api/partenaires?search=minjus')).json().member;
    expect(
      list.map((p: { code: string; projectsCount: number; signalementsCount: number }) => [
        p.code,
        p.projectsCount,
        p.signalementsCount,
      ]),
    ).toEqual([
      ['MINJUS', 0, 0],
      ['MINJUS2', 2, 0],
      ['MINJUS3', 0, 3],
    ]);
    for (const code of ['MINJUS2', 'MINJUS3']) {
      const res = await send('DELETE', `/api/partenaires/${code}`);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(
        'Ce partenaire ne peut pas être supprimé car il est lié à des projets ou des signalements.',
      );
      const viaTrpc = await trpc('partenaires.delete', admin.cookie, { code });
      expect(viaTrpc.statusCode).toBe(409);
    }
    expect((await send('GET', '/api/partenaires/MINJUS2')).statusCode).toBe(200);
  });

  it('never deletes the internal partner IVY', async () => {
    const res = await send('DELETE', '/api/partenaires/IVY');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Le partenaire interne Ivorary ne peut pas être supprimé.');
    expect((await send('GET', '/api/partenaires/IVY')).json()).toMatchObject({
      code: 'IVY',
      designation: 'Ivorary',
      initial: 'IV',
      color: '#3b82f6',
    });
  });

  it('deletes a partner without projects or reports (REST 204, tRPC), then answers 404', async () => {
    expect((await send('DELETE', '/api/partenaires/MEDIATUR')).statusCode).toBe(204);
    expect((await send('GET', '/api/partenaires/MEDIATUR')).statusCode).toBe(404);
    expect((await send('DELETE', '/api/partenaires/MEDIATUR')).statusCode).toBe(404);
    const viaTrpc = await trpc('partenaires.delete', admin.cookie, { code: 'MINJUS' });
    expect(viaTrpc.json().result.data).toEqual({ success: true });
    const gone = await send('GET', '/api/partenaires/MINJUS');
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe('Partenaire introuvable.');
  });
});
