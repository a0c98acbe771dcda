import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { createReport, mergePatch } from '#tests/helpers/signalements';

describe.each(await testEngines())('authors, sources and victims on %s', (engine) => {
  let t: TestApp;
  let creator: string;
  let other: string;
  let code: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    await t.user('createur@example.mg');
    await t.user('autre@example.mg');
    creator = await t.login('createur@example.mg');
    other = await t.login('autre@example.mg');
    code = await createReport(t, creator);
  });
  afterAll(async () => t?.close());

  const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, cookie = creator) =>
    t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const history = async () =>
    (await t.app.inject({ url: `/api/signalements/${code}/historique`, headers: { cookie: creator } })).json()
      .member as Array<{
      action: string;
      changes: Record<string, { from: unknown; to: unknown }>;
    }>;

  it('adds, edits and deletes a presumed author, recording each step', async () => {
    const created = await send('POST', '/api/presume_auteurs', {
      nomPrenom: 'Rakotomalala Jean',
      fonction: 'Maire',
      signalement: `/api/signalements/${code}`,
    });
    expect(created.statusCode).toBe(201);
    const author = created.json();
    expect(author).toMatchObject({
      '@type': 'PresumeAuteur',
      nomPrenom: 'Rakotomalala Jean',
      fonction: 'Maire',
      description: null,
    });
    expect(author['@id']).toMatch(/^\/api\/presume_auteurs\/AUT-/);

    const edited = await send('PATCH', author['@id'], {
      nomPrenom: 'Rakotomalala Jean-Paul',
      fonction: 'Maire adjoint',
    });
    expect(edited.json()).toMatchObject({ nomPrenom: 'Rakotomalala Jean-Paul', fonction: 'Maire adjoint' });
    const list = await t.app.inject({ url: `/api/signalements/${code}/auteurs`, headers: { cookie: other } });
    expect(list.json().presumeAuteurs.map((x: { nomPrenom: string }) => x.nomPrenom)).toEqual([
      'Rakotomalala Jean-Paul',
    ]);

    expect((await send('DELETE', author['@id'])).statusCode).toBe(204);
    expect(
      (await t.app.inject({ url: `/api/signalements/${code}/auteurs`, headers: { cookie: creator } })).json()
        .presumeAuteurs,
    ).toEqual([]);
    const actions = (await history()).map((h) => h.action);
    expect(actions.slice(0, 3)).toEqual(['auteur.suppression', 'auteur.modification', 'auteur.ajout']);
    expect((await history())[1]!.changes.nomPrenom).toEqual({
      from: 'Rakotomalala Jean',
      to: 'Rakotomalala Jean-Paul',
    });
  });

  it('validates with the §5 messages', async () => {
    const author = await send('POST', '/api/presume_auteurs', {
      nomPrenom: 'R',
      signalement: `/api/signalements/${code}`,
    });
    expect(author.statusCode).toBe(400);
    expect(author.json().message).toBe('Le nom est requis.');
    const victim = await send('POST', '/api/victimes', {
      nomPrenom: ' ',
      signalement: `/api/signalements/${code}`,
    });
    expect(victim.json().message).toBe('Le nom est requis.');
    const source = await send('POST', '/api/sources', {
      canaux: ['/api/canals/OTHERS'],
      signalement: `/api/signalements/${code}`,
    });
    expect(source.json().message).toBe("La description pour 'Autre Canal' est obligatoire.");
  });

  it('refuses every change by someone who is neither creator nor admin, changing nothing', async () => {
    const refused = await send(
      'POST',
      '/api/victimes',
      { nomPrenom: 'Rasoa', signalement: `/api/signalements/${code}` },
      other,
    );
    expect(refused.statusCode).toBe(403);
    const victim = (
      await send('POST', '/api/victimes', {
        nomPrenom: 'Rasoa Marie',
        contact: '034 00 000 00',
        signalement: `/api/signalements/${code}`,
      })
    ).json();
    expect((await send('PATCH', victim['@id'], { nomPrenom: 'Autre nom' }, other)).statusCode).toBe(403);
    expect((await send('DELETE', victim['@id'], undefined, other)).statusCode).toBe(403);
    const list = await t.app.inject({
      url: `/api/signalements/${code}/victimes`,
      headers: { cookie: other },
    });
    expect(list.json().victimes).toMatchObject([{ nomPrenom: 'Rasoa Marie', contact: '034 00 000 00' }]);
  });

  it('keeps sources with their channels, and lists them with the anonymous flag', async () => {
    const created = await send('POST', '/api/sources', {
      nomPrenom: 'Témoin A',
      contact: 'temoin@example.mg',
      canaux: ['/api/canals/TELEPHONE', '/api/canals/OTHERS'],
      autreCanal: 'Radio locale',
      signalement: `/api/signalements/${code}`,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().canaux.map((c: { code: string }) => c.code)).toEqual(['TELEPHONE', 'OTHERS']);
    const edited = await send('PATCH', created.json()['@id'], {
      nomPrenom: 'Témoin A',
      canaux: ['/api/canals/EMAIL'],
      autreCanal: 'ignoré',
    });
    expect(edited.json()).toMatchObject({ canaux: [{ code: 'EMAIL' }], autreCanal: null });
    await mergePatch(t, creator, `/api/signalements/${code}`, { isAnonyme: true });
    const list = (
      await t.app.inject({ url: `/api/signalements/${code}/source`, headers: { cookie: creator } })
    ).json();
    expect(list.isAnonyme).toBe(true);
    expect(list.sources).toHaveLength(1);
  });

  it('finds a report by the exact name of its source, never by a part of it, and not the sources of an anonymous report', async () => {
    const search = async (query: string, cookie = other) =>
      (
        await t.app.inject({
          url: `/api/signalements?search=${encodeURIComponent(query)}`,
          headers: { cookie },
        })
      ).json().totalItems;
    await mergePatch(t, creator, `/api/signalements/${code}`, { isAnonyme: true });
    expect(await search('temoin a')).toBe(0);
    expect(await search('Témoin A', creator)).toBe(1);
    await mergePatch(t, creator, `/api/signalements/${code}`, { isAnonyme: false });
    expect(await search('  TEMOIN   a ')).toBe(1);
    expect(await search('temoin')).toBe(0);
  });

  it('answers 404 for an unknown person', async () => {
    const res = await send('PATCH', '/api/victimes/VIC-0000-0000', { nomPrenom: 'Personne' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Victime introuvable.');
  });

  it('offers the same operations through tRPC', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/trpc/auteurs.create',
      headers: { cookie: creator },
      payload: { nomPrenom: 'Par tRPC', signalement: code },
    });
    expect(created.statusCode).toBe(200);
    const authorCode = created.json().result.data.code;
    const updated = await t.app.inject({
      method: 'POST',
      url: '/trpc/auteurs.update',
      headers: { cookie: creator },
      payload: { code: authorCode, data: { nomPrenom: 'Par tRPC modifié' } },
    });
    expect(updated.json().result.data.nomPrenom).toBe('Par tRPC modifié');
    const removed = await t.app.inject({
      method: 'POST',
      url: '/trpc/auteurs.delete',
      headers: { cookie: other },
      payload: { code: authorCode },
    });
    expect(removed.statusCode).toBe(403);
  });
});
