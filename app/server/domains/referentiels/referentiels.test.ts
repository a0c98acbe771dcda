import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';

describe.each(await testEngines())('reference lists on %s', (engine) => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    await t.user('agent@example.mg');
    cookie = await t.login('agent@example.mg');
  });
  afterAll(async () => t?.close());

  const members = async (url: string) => {
    const res = await t.app.inject({ url, headers: { cookie } });
    expect(res.statusCode, url).toBe(200);
    return res.json().member as Array<Record<string, unknown>>;
  };

  it('lists subjects and channels with OTHERS last, and the five results', async () => {
    const subjects = await members('/api/subjects');
    expect(subjects.at(-1)).toMatchObject({
      '@id': '/api/subjects/OTHERS',
      code: 'OTHERS',
      designation: 'Autre (à préciser)',
    });
    const canals = await members('/api/canals');
    expect(canals.at(-1)).toMatchObject({ code: 'OTHERS', designation: 'Autre (à préciser)' });
    expect(canals.every((c) => typeof c.icon === 'string')).toBe(true);
    expect((await members('/api/resultats')).map((r) => r.code)).toEqual([
      'RESULTAT_AVERE',
      'RESULTAT_NON_AVERE',
      'RESULTAT_PARTIELLEMENT_AVERE',
      'RESULTAT_NON_DETERMINE',
      'RESULTAT_FAUX_SIGNALEMENT',
    ]);
    expect(
      (await members('/api/statuts')).every((s) => ['open', 'treated', 'closed'].includes(s.kind as string)),
    ).toBe(true);
    expect((await members('/api/niveaux')).every((n) => /^#[0-9a-f]{6}$/i.test(n.color as string))).toBe(
      true,
    );
  });

  it('lists the 24 regions and cascades districts and communes by code', async () => {
    expect(await members('/api/regions')).toHaveLength(24);
    const districts = await members('/api/districts?region.code=MG35');
    expect(districts.map((d) => d.code).sort()).toEqual(['MG23210', 'MG23211', 'MG23212']);
    const communes = await members('/api/communes?district.code=MG23212');
    expect(communes.length).toBeGreaterThan(0);
    expect(communes.every((c) => String(c.code).startsWith('MG23212'))).toBe(true);
    const trpc = await t.app.inject({
      url: `/trpc/referentiels.districts?input=${encodeURIComponent('{"region":"MG35"}')}`,
      headers: { cookie },
    });
    expect(trpc.json().result.data).toHaveLength(3);
  });
});
