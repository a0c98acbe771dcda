// Edit conflicts (docs/decisions/0047-edit-conflicts.md): a write that names the version it read is refused
// with a 409 and both values when the report moved since, and nothing is written; two writes from the same
// version: exactly one wins; REST If-Match / ETag; bulk edits and the location move the version too; a
// write without a precondition works as before. Both doors, both engines.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { EDIT_CONFLICT_MESSAGE } from '#shared/dto/edit-conflict';
import { IF_MATCH_INVALID } from '#server/http/etag';
import { testEngines } from '#tests/helpers/db';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport } from '#tests/helpers/signalements';
import { serverSuite } from '#tests/helpers/suite';

describe.each(await testEngines())('edit conflicts on %s', (engine) => {
  const { app: t, user } = serverSuite(engine);
  let cookie = '';
  beforeAll(() => {
    cookie = user.cookie;
  });

  const send = (method: 'POST' | 'PATCH' | 'PUT', url: string, body: unknown, headers = {}) =>
    t.app.inject({
      method,
      url,
      headers: {
        cookie,
        ...SAME_ORIGIN,
        'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
        ...headers,
      },
      payload: JSON.stringify(body),
    });
  const trpcUpdate = (code: string, patch: object, expectedVersion?: number) =>
    send('POST', '/trpc/signalements.update', { code, patch, expectedVersion });
  const get = (code: string) => t.app.inject({ url: `/api/signalements/${code}`, headers: { cookie } });
  const stored = async (code: string) => {
    const s = t.db.t.signalements;
    const [row] = await t.db.read
      .select({ version: s.version, description: s.description, isRecurrent: s.isRecurrent })
      .from(s)
      .where(eq(s.code, code));
    return { ...row!, version: Number(row!.version) };
  };

  it('refuses a tRPC update from a stale version with both values, and writes nothing', async () => {
    const code = await createReport(t, cookie);
    const read = (await get(code)).json();
    expect(read.version).toBe(1);

    const first = await trpcUpdate(code, { description: 'Version de Rabe' }, 1);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().result.data).toMatchObject({ description: 'Version de Rabe', version: 2 });

    const stale = await trpcUpdate(code, { description: 'Version de Rasoa', niveau: 'CRITIQUE' }, 1);
    expect(stale.statusCode).toBe(409);
    const error = stale.json().error;
    expect(error.message).toBe(EDIT_CONFLICT_MESSAGE);
    expect(error.data.details).toEqual({
      version: 2,
      champs: [
        { champ: 'description', valeurActuelle: 'Version de Rabe', votreValeur: 'Version de Rasoa' },
        { champ: 'niveau', valeurActuelle: null, votreValeur: 'CRITIQUE' },
      ],
    });
    expect(await stored(code)).toMatchObject({ version: 2, description: 'Version de Rabe' });

    // « Écraser avec mes valeurs »: the same values sent again with the version the 409 gave.
    const again = await trpcUpdate(code, { description: 'Version de Rasoa' }, error.data.details.version);
    expect(again.statusCode, again.body).toBe(200);
    expect(await stored(code)).toMatchObject({ version: 3, description: 'Version de Rasoa' });
  });

  it('answers a resend of a write already applied as done: no 409, no new version, no second history line', async () => {
    const code = await createReport(t, cookie);
    const history = async () =>
      (await t.app.inject({ url: `/api/signalements/${code}/historique`, headers: { cookie } })).json()[
        'hydra:totalItems'
      ] as number;
    const patch = { description: 'Envoyé deux fois', subjects: ['CORRUPTION', 'FRAUDE'], isRecurrent: true };
    const first = await trpcUpdate(code, patch, 1);
    expect(first.statusCode, first.body).toBe(200);
    const lines = await history();

    // The outbox sends it again (its answer was lost), with the version read before the first send; the
    // codes of a list may come in another order.
    const resend = await trpcUpdate(code, { ...patch, subjects: ['FRAUDE', 'CORRUPTION'] }, 1);
    expect(resend.statusCode, resend.body).toBe(200);
    expect(resend.json().result.data).toMatchObject({ description: 'Envoyé deux fois', version: 2 });
    expect(await stored(code)).toMatchObject({ version: 2, description: 'Envoyé deux fois' });
    expect(await history()).toBe(lines);

    // Through REST with If-Match too.
    const rest = await send('PATCH', `/api/signalements/${code}`, patch, { 'if-match': 'W/"1"' });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(await stored(code)).toMatchObject({ version: 2 });

    // One field that differs is a conflict again, with both values.
    const stale = await trpcUpdate(code, { ...patch, isRecurrent: false }, 1);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.data.details.champs).toContainEqual({
      champ: 'isRecurrent',
      valeurActuelle: true,
      votreValeur: false,
    });
    expect(await stored(code)).toMatchObject({ version: 2, isRecurrent: true });
  });

  it('writes as before without a precondition (partners, older clients), moving the version', async () => {
    const code = await createReport(t, cookie);
    await trpcUpdate(code, { isRecurrent: true });
    const res = await trpcUpdate(code, { description: 'Sans précondition' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await stored(code)).toMatchObject({ version: 3, description: 'Sans précondition' });
  });

  it('lets exactly one of two updates from the same version win', async () => {
    for (let round = 0; round < 3; round++) {
      const code = await createReport(t, cookie);
      const answers = await Promise.all([
        trpcUpdate(code, { description: 'Premier' }, 1),
        trpcUpdate(code, { description: 'Second' }, 1),
      ]);
      const statuses = answers.map((a) => a.statusCode).sort();
      expect(statuses, answers.map((a) => a.body).join('\n')).toEqual([200, 409]);
      const winner = answers.find((a) => a.statusCode === 200)!.json().result.data.description;
      expect(await stored(code)).toEqual({ version: 2, description: winner, isRecurrent: false });
    }
  });

  it('sends an ETag with a report and honours If-Match on REST PATCH', async () => {
    const code = await createReport(t, cookie);
    const url = `/api/signalements/${code}`;
    const read = await get(code);
    expect(read.headers.etag).toBe('W/"1"');

    const saved = await send('PATCH', url, { isRecurrent: true }, { 'if-match': 'W/"1"' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.headers.etag).toBe('W/"2"');
    expect((await get(code)).headers.etag).toBe('W/"2"');

    const stale = await send(
      'PATCH',
      url,
      { isRecurrent: false, niveau: '/api/niveaux/CRITIQUE' },
      { 'if-match': 'W/"1"' },
    );
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({
      status: 409,
      message: EDIT_CONFLICT_MESSAGE,
      version: 2,
      champs: [
        { champ: 'isRecurrent', valeurActuelle: true, votreValeur: false },
        { champ: 'niveau', valeurActuelle: null, votreValeur: 'CRITIQUE' },
      ],
    });
    expect(await stored(code)).toMatchObject({ version: 2, isRecurrent: true });

    // A strong tag names the same version; `*` is no precondition; a malformed tag is a 400 in French.
    expect((await send('PATCH', url, { isRecurrent: false }, { 'if-match': '"2"' })).statusCode).toBe(200);
    expect((await send('PATCH', url, { isConfict: true }, { 'if-match': '*' })).statusCode).toBe(200);
    const bad = await send('PATCH', url, { isConfict: false }, { 'if-match': 'version 4' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(IF_MATCH_INVALID);
    expect(await stored(code)).toMatchObject({ version: 4, isRecurrent: false });
  });

  it('moves the version on a location change and refuses a stale one', async () => {
    const code = await createReport(t, cookie);
    const url = `/api/signalements/${code}/localisation`;
    const saved = await send('PUT', url, { region: '/api/regions/MG11' }, { 'if-match': 'W/"1"' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await stored(code)).version).toBe(2);
    const stale = await send('POST', '/trpc/signalements.updateLocalisation', {
      code,
      region: null,
      expectedVersion: 1,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.data.details.champs).toContainEqual({
      champ: 'region',
      valeurActuelle: 'MG11',
      votreValeur: null,
    });
    expect((await get(code)).json().region?.code).toBe('MG11');

    // The same location sent again from the old version (its answer was lost): done, nothing moves.
    const resend = await send('PUT', url, { region: '/api/regions/MG11' }, { 'if-match': 'W/"1"' });
    expect(resend.statusCode, resend.body).toBe(200);
    expect((await stored(code)).version).toBe(2);
  });

  it('moves the version of the reports a bulk statut or niveau change edits, not of an assignment', async () => {
    const codes = [await createReport(t, cookie), await createReport(t, cookie)];
    const bulk = (action: object) => send('POST', '/api/signalements/actions-groupees', { codes, action });
    expect((await bulk({ type: 'statut', statut: '/api/statuts/EN_COURS' })).statusCode).toBe(200);
    expect((await bulk({ type: 'niveau', niveau: '/api/niveaux/CRITIQUE' })).statusCode).toBe(200);
    expect((await bulk({ type: 'assigner', utilisateur: `/api/utilisateurs/${user.code}` })).statusCode).toBe(
      200,
    );
    for (const code of codes) expect((await stored(code)).version).toBe(3);
    // A form opened before the bulk action no longer saves over it unseen.
    const stale = await trpcUpdate(codes[0]!, { niveau: null }, 1);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.data.details.champs).toEqual([
      { champ: 'niveau', valeurActuelle: 'CRITIQUE', votreValeur: null },
    ]);
  });
});
