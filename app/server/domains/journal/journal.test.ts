// The access log's write path (decision 0015, "What is logged"): every read of a report's people, every
// export, every change of rights and every log-in step lands in access_log with the right user, report and
// address, through both doors (REST and tRPC), on both engines; and no password or code is ever written
// there.
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { serverSuite } from '#tests/helpers/suite';
import { accessLogRows, userId } from '#tests/helpers/journal';
import { addPeople, SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport } from '#tests/helpers/signalements';

describe.each(await testEngines())('access log on %s', (engine) => {
  const {
    app: t,
    admin,
    user: creator,
  } = serverSuite(engine, {
    user: { email: 'createur@example.mg', nomPrenom: 'Rabe Createur' },
  });
  let reader: string;
  let readerCode: string;
  let report: string;

  beforeAll(async () => {
    readerCode = await t.user('lecteur@example.mg', 'ROLE_USER', 'Rakoto Lecteur');
    reader = await t.login('lecteur@example.mg');
    report = await createReport(t, creator.cookie);
    await addPeople(t, creator.cookie, report);
  });

  const get = (cookie: string, url: string, address: string) =>
    t.app.inject({ method: 'GET', url, headers: { cookie, 'x-forwarded-for': address } });
  const trpcQuery = (cookie: string, path: string, input: unknown, address: string) =>
    get(cookie, `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, address);
  const newEntries = async (since: number) => (await accessLogRows(t)).filter((r) => r.id > since);
  const lastId = async () => (await accessLogRows(t)).at(-1)?.id ?? 0;

  it("logs each read of a report's people through REST, with the reader, the report and the address", async () => {
    const before = await lastId();
    for (const path of ['auteurs', 'source', 'victimes', 'historique']) {
      const res = await get(reader, `/api/signalements/${report}/${path}`, '41.188.10.7');
      expect(res.statusCode, res.body).toBe(200);
    }
    const rows = await newEntries(before);
    expect(rows.map((r) => [r.kind, r.kind === 'lecture_personnes' ? r.details.personnes : null])).toEqual([
      ['lecture_personnes', 'auteurs'],
      ['lecture_personnes', 'sources'],
      ['lecture_personnes', 'victimes'],
      ['lecture_historique', null],
    ]);
    const id = await userId(t, readerCode);
    for (const row of rows) {
      expect(row).toMatchObject({
        userId: id,
        userEmail: 'lecteur@example.mg',
        address: '41.188.10.7',
        signalementCode: report,
      });
    }
    expect(rows[0]!.details).toEqual({ personnes: 'auteurs', nombre: 1 });
    // The history holds the creation and the three additions of people.
    expect(rows[3]!.details).toEqual({ entrees: 4, personnes: 3, masquees: 0 });
  });

  it("logs each read of a report's people through tRPC the same way", async () => {
    const before = await lastId();
    for (const path of ['auteurs.list', 'sources.list', 'victimes.list']) {
      const res = await trpcQuery(reader, path, { signalement: report }, '41.188.10.8');
      expect(res.statusCode, res.body).toBe(200);
    }
    const history = await trpcQuery(reader, 'signalements.historique', { code: report }, '41.188.10.8');
    expect(history.statusCode, history.body).toBe(200);
    const rows = await newEntries(before);
    expect(rows.map((r) => r.kind)).toEqual([
      'lecture_personnes',
      'lecture_personnes',
      'lecture_personnes',
      'lecture_historique',
    ]);
    expect(new Set(rows.map((r) => `${r.userEmail} ${r.address} ${r.signalementCode}`))).toEqual(
      new Set([`lecteur@example.mg 41.188.10.8 ${report}`]),
    );
  });

  it('logs what a caller without the need to know got: the number of protected sources, not their names', async () => {
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/signalements/${report}`,
      headers: { cookie: creator.cookie, 'content-type': 'application/merge-patch+json' },
      payload: JSON.stringify({ isAnonyme: true }),
    });
    expect(patch.statusCode, patch.body).toBe(200);
    const before = await lastId();
    const res = await get(reader, `/api/signalements/${report}/source`, '41.188.10.9');
    expect(res.json()).toMatchObject({ sources: [], sourcesProtegees: 1 });
    const [row] = await newEntries(before);
    expect(row).toMatchObject({ kind: 'lecture_personnes', signalementCode: report });
    expect(row!.details).toEqual({ personnes: 'sources', protegees: true, masquees: 1 });
  });

  it('does not log a history without entries about people, nor a read refused as not found', async () => {
    const bare = await createReport(t, creator.cookie);
    const before = await lastId();
    expect((await get(reader, `/api/signalements/${bare}/historique`, '41.188.10.7')).statusCode).toBe(200);
    expect((await get(reader, '/api/signalements/SIG-INCONNU/auteurs', '41.188.10.7')).statusCode).toBe(404);
    expect(await newEntries(before)).toEqual([]);
  });

  it('logs each export once, with its format, filters and row count, and no report code', async () => {
    const before = await lastId();
    const xlsx = await get(
      reader,
      '/api/signalements/export/xlsx?signalementAt[after]=2025-01-01',
      '41.188.10.7',
    );
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    const json = await get(reader, '/api/signalements/export/list', '41.188.10.7');
    expect(json.statusCode).toBe(200);
    const rows = await newEntries(before);
    expect(rows.map((r) => r.kind)).toEqual(['export', 'export']);
    expect(rows[0]).toMatchObject({
      userEmail: 'lecteur@example.mg',
      address: '41.188.10.7',
      signalementCode: null,
    });
    expect(rows[0]!.details).toMatchObject({ format: 'xlsx', lignes: Number(xlsx.headers['x-total-count']) });
    expect(rows[0]!.details.filtres).toMatchObject({ signalementAt: { after: '2024-12-31T21:00:00.000Z' } });
    expect(rows[1]!.details).toMatchObject({
      format: 'json',
      lignes: Number(json.headers['x-total-count']),
      filtres: {},
    });
  });

  it('logs the changes of role and of the enabled state, with before → after, and a second-factor reset', async () => {
    const code = await t.user('droits@example.mg', 'ROLE_USER', 'Ravelo Droits');
    const before = await lastId();
    const patch = (payload: object) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/utilisateurs/${code}`,
        headers: {
          cookie: admin.cookie,
          'content-type': 'application/merge-patch+json',
          'x-forwarded-for': '41.188.20.1',
        },
        payload: JSON.stringify(payload),
      });
    expect((await patch({ utilisateurRole: '/api/utilisateur_roles/ROLE_ADMIN' })).statusCode).toBe(200);
    expect((await patch({ nomPrenom: 'Ravelo Renommé' })).statusCode).toBe(200);
    expect((await patch({ isEnabled: false })).statusCode).toBe(200);
    const reset = await t.app.inject({
      method: 'POST',
      url: `/trpc/utilisateurs.resetTwoFactor`,
      headers: { cookie: admin.cookie, ...SAME_ORIGIN, 'x-forwarded-for': '41.188.20.1' },
      payload: { code },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const rows = await newEntries(before);
    // Renaming changes no right: nothing logged for it.
    expect(rows.map((r) => r.kind)).toEqual(['droits', 'droits', 'droits']);
    expect(rows.every((r) => r.userEmail === 'admin@example.mg' && r.address === '41.188.20.1')).toBe(true);
    expect(rows[0]!.details).toEqual({
      action: 'modification',
      utilisateur: code,
      role: { avant: 'Utilisateur', apres: 'Administrateur' },
    });
    expect(rows[1]!.details).toEqual({
      action: 'modification',
      utilisateur: code,
      compte: { avant: 'actif', apres: 'désactivé' },
    });
    expect(rows[2]!.details).toEqual({
      action: 'reinitialisation_2fa',
      utilisateur: code,
      avaitDeuxiemeFacteur: false,
    });
  });

  it('logs an invitation with the role given', async () => {
    const before = await lastId();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/utilisateur/create-user',
      headers: { cookie: admin.cookie, ...SAME_ORIGIN },
      payload: {
        email: 'invite@example.mg',
        nomPrenom: 'Rasoa Invitée',
        utilisateurRole: '/api/utilisateur_roles/ROLE_USER',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await newEntries(before);
    expect(row).toMatchObject({ kind: 'droits', userEmail: 'admin@example.mg' });
    expect(row!.details).toEqual({ action: 'creation', utilisateur: res.json().code, role: 'Utilisateur' });
  });

  it('logs log-ins and failed log-ins with the account (or a hash of an unknown e-mail) and a reason, never the password', async () => {
    const before = await lastId();
    const login = (email: string, password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { 'x-forwarded-for': '41.188.30.3' },
        payload: { email, password },
      });
    expect((await login('inconnu@example.mg', 'un-secret-tres-particulier')).statusCode).toBe(401);
    expect((await login('lecteur@example.mg', 'un-autre-secret-particulier')).statusCode).toBe(401);
    expect((await login('lecteur@example.mg', TEST_PASSWORD)).statusCode).toBe(200);
    const rows = await newEntries(before);
    expect(rows.map((r) => [r.kind, r.userEmail, r.address, r.details])).toEqual([
      ['echec_connexion', null, '41.188.30.3', { motif: 'compte_inconnu', empreinte: expect.any(String) }],
      ['echec_connexion', 'lecteur@example.mg', '41.188.30.3', { motif: 'mot_de_passe_incorrect' }],
      ['connexion', 'lecteur@example.mg', '41.188.30.3', { etape: 'mot_de_passe' }],
    ]);
    expect(rows[0]!.userId).toBeNull();
    expect(rows[1]!.userId).toBe(await userId(t, readerCode));
    const stored = JSON.stringify(await accessLogRows(t));
    for (const secret of [
      'un-secret-tres-particulier',
      'un-autre-secret-particulier',
      TEST_PASSWORD,
      'inconnu@',
    ])
      expect(stored).not.toContain(secret);
  });

  it('logs the second factor: a wrong code as a failure without the code, a right one as a log-in', async () => {
    const { cookie } = await t.loginPasswordOnly('admin@example.mg');
    const before = await lastId();
    const verify = (code: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/two-factor/verify',
        headers: { cookie, ...SAME_ORIGIN },
        payload: { code },
      });
    const right = t.totp('admin@example.mg');
    const wrong = right === '000000' ? '111111' : '000000';
    expect((await verify(wrong)).statusCode).toBe(400);
    expect((await verify(t.totp('admin@example.mg'))).statusCode).toBe(204);
    const rows = await newEntries(before);
    expect(rows.map((r) => [r.kind, r.userEmail, r.details])).toEqual([
      ['echec_connexion', 'admin@example.mg', { motif: 'code_incorrect' }],
      ['connexion', 'admin@example.mg', { etape: 'double_authentification' }],
    ]);
    expect(JSON.stringify(rows)).not.toContain(wrong);
  });

  it('logs an attempt refused by the log-in limiter, after counting it, without checking the password', async () => {
    const address = '41.188.50.5';
    const login = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { 'x-forwarded-for': address },
        payload: { email: 'createur@example.mg', password },
      });
    for (let i = 0; i < 5; i++) expect((await login(`mauvais-${i}-mot-de-passe`)).statusCode).toBe(401);
    const before = await lastId();
    expect((await login(TEST_PASSWORD)).statusCode).toBe(429);
    const rows = await newEntries(before);
    expect(rows.map((r) => [r.kind, r.userEmail, r.address, r.details])).toEqual([
      ['echec_connexion', 'createur@example.mg', address, { motif: 'trop_de_tentatives' }],
    ]);
    expect(rows[0]!.userId).not.toBeNull();
  });

  it('logs a log-in with a recovery code, and a wrong recovery code without the code', async () => {
    const { cookie } = await t.loginPasswordOnly('admin@example.mg');
    const before = await lastId();
    const recover = (code: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/two-factor/recovery',
        headers: { cookie, ...SAME_ORIGIN },
        payload: { code },
      });
    expect((await recover('ZZZZ-ZZZZ-ZZZZ-ZZZZ')).statusCode).toBe(400);
    const code = t.recoveryCode('admin@example.mg');
    expect((await recover(code)).statusCode).toBe(200);
    const rows = await newEntries(before);
    expect(rows.map((r) => [r.kind, r.details])).toEqual([
      ['echec_connexion', { motif: 'code_de_secours_incorrect' }],
      ['connexion', { etape: 'code_de_secours' }],
    ]);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain('ZZZZ');
    expect(stored).not.toContain(code);
  });
});
