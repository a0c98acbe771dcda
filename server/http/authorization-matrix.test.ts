// Who may call what: every route and every procedure × four callers, each cell a valid request (so a
// success is really reachable and a refusal is the rule's, not a bad body). The rules come from spec §6
// and docs/decisions/0011-report-rules.md and 0015-security-model.md; the services enforce them
// (server/domains/signalements/access.ts, server/domains/auth/guards.ts).
//
// Success is compared by class (201 and 204 are written where the door answers them, any 2xx passes);
// refusals are compared exactly. A route or procedure missing from MATRIX, or an entry of MATRIX that
// no longer exists, fails the first test.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../../tests/helpers/app';
import { testEngines } from '../../tests/helpers/db';
import {
  addPeople,
  insertAlert,
  insertFailedMail,
  passwordLinkToken,
  SAME_ORIGIN,
} from '../../tests/helpers/report-fixture';
import { createReport } from '../../tests/helpers/signalements';
import { appRouter } from '../trpc/router';

type Row = readonly [anonymous: number, otherUser: number, creator: number, admin: number];

// prettier-ignore
const MATRIX: Record<string, Row> = {
  //                                                        anon   other  creator admin
  // ------------------------------------------------ REST: public doors
  'POST /api/login':                                       [200,   200,   200,   200],
  'GET /api/health':                                       [200,   200,   200,   200],
  // Opened by METRICS_TOKEN only, never by a session; without the setting (as here) it does not exist.
  'GET /metrics':                                          [404,   404,   404,   404],
  'GET /api/definir-mot-de-passe/:token':                  [200,   200,   200,   200],
  'POST /api/definir-mot-de-passe/:token':                 [204,   204,   204,   204],
  'GET /api/resume/signalements-details/:code':            [200,   200,   200,   200],
  'GET /':                                                 [302,   302,   302,   302],
  'GET /admin':                                            [302,   302,   302,   302],
  // ------------------------------------------------ REST: session, accounts
  'POST /api/logout':                                      [401,   204,   204,   204],
  'GET /api/utilisateur/who-am-i':                         [401,   200,   200,   200],
  'GET /api/utilisateur_roles':                            [401,   200,   200,   200],
  'GET /api/utilisateurs':                                 [401,   403,   403,   200],
  'POST /api/utilisateur/create-user':                     [401,   403,   403,   201],
  // ------------------------------------------------ REST: second factor (the admin is enrolled, the others are not)
  'POST /api/two-factor/verify':                           [401,   409,   409,   204],
  'POST /api/two-factor/recovery':                         [401,   409,   409,   200],
  'POST /api/utilisateur/reset-two-factor/:code':          [401,   403,   403,   204],
  'PATCH /api/utilisateurs/:code':                         [401,   403,   403,   200],
  'GET /api/utilisateur/reset-password/:code':             [401,   403,   403,   200],
  'GET /api/mail_outbox/failed':                           [401,   403,   403,   200],
  'POST /api/mail_outbox/:id/retry':                       [401,   403,   403,   200],
  'GET /api/journal-acces/export/xlsx':                     [401,   403,   403,   200],
  // ------------------------------------------------ REST: partners and projects
  'GET /api/partenaires':                                  [401,   200,   200,   200],
  'GET /api/partenaires/:code':                            [401,   200,   200,   200],
  'POST /api/partenaires':                                 [401,   403,   403,   201],
  'PUT /api/partenaires/:code':                            [401,   403,   403,   200],
  'DELETE /api/partenaires/:code':                         [401,   403,   403,   204],
  'GET /api/projects':                                     [401,   200,   200,   200],
  'GET /api/projects/:code':                               [401,   200,   200,   200],
  'POST /api/projects':                                    [401,   403,   201,   201],
  // ------------------------------------------------ REST: reports (read: any session; change: creator or admin)
  'GET /api/signalements':                                 [401,   200,   200,   200],
  'POST /api/signalements':                                [401,   201,   201,   201],
  'GET /api/signalements/export/list':                     [401,   200,   200,   200],
  'GET /api/signalements/export/xlsx':                     [401,   200,   200,   200],
  'GET /api/signalements/:code':                           [401,   200,   200,   200],
  'PATCH /api/signalements/:code':                         [401,   403,   200,   200],
  'GET /api/signalements/:code/localisation':              [401,   200,   200,   200],
  'PATCH /api/signalements/:code/localisation':            [401,   403,   200,   200],
  'PUT /api/signalements/:code/localisation':              [401,   403,   200,   200],
  'GET /api/signalements/:code/auteurs':                   [401,   200,   200,   200],
  'GET /api/signalements/:code/source':                    [401,   200,   200,   200],
  'GET /api/signalements/:code/victimes':                  [401,   200,   200,   200],
  'GET /api/signalements/:code/historique':                [401,   200,   200,   200],
  'GET /api/signalement/:code/default-mail-content':       [401,   200,   200,   200],
  'POST /api/signalement/:code/notify-partner':            [401,   403,   200,   200],
  'POST /api/presume_auteurs':                             [401,   403,   201,   201],
  'PATCH /api/presume_auteurs/:code':                      [401,   403,   200,   200],
  'DELETE /api/presume_auteurs/:code':                     [401,   403,   204,   204],
  'POST /api/sources':                                     [401,   403,   201,   201],
  'PATCH /api/sources/:code':                              [401,   403,   200,   200],
  'DELETE /api/sources/:code':                             [401,   403,   204,   204],
  'POST /api/victimes':                                    [401,   403,   201,   201],
  'PATCH /api/victimes/:code':                             [401,   403,   200,   200],
  'DELETE /api/victimes/:code':                            [401,   403,   204,   204],
  // ------------------------------------------------ REST: reference lists and dashboard
  'GET /api/subjects':                                     [401,   200,   200,   200],
  'GET /api/canals':                                       [401,   200,   200,   200],
  'GET /api/niveaux':                                      [401,   200,   200,   200],
  'GET /api/statuts':                                      [401,   200,   200,   200],
  'GET /api/resultats':                                    [401,   200,   200,   200],
  'GET /api/regions':                                      [401,   200,   200,   200],
  'GET /api/districts':                                    [401,   200,   200,   200],
  'GET /api/communes':                                     [401,   200,   200,   200],
  'GET /api/dashboard/key-metrics':                        [401,   200,   200,   200],
  'GET /api/dashboard/count-per-localisation':             [401,   200,   200,   200],
  'GET /api/dashboard/count-per-canal-principal':          [401,   200,   200,   200],
  'GET /api/dashboard/signalement-per-jour':               [401,   200,   200,   200],
  'GET /api/dashboard/count-per-subject':                  [401,   200,   200,   200],
  'GET /api/dashboard/count-per-niveau':                   [401,   200,   200,   200],
  'GET /api/dashboard/count-per-resultat':                 [401,   200,   200,   200],
  // ------------------------------------------------ tRPC: public procedures
  'auth.login':                                            [200,   200,   200,   200],
  'passwordTokens.inspect':                                [200,   200,   200,   200],
  'passwordTokens.define':                                 [200,   200,   200,   200],
  'signalements.resume':                                   [200,   200,   200,   200],
  // ------------------------------------------------ tRPC: session, accounts
  'auth.logout':                                           [401,   200,   200,   200],
  'auth.whoAmI':                                           [401,   200,   200,   200],
  // null for an anonymous caller, the caller's own user otherwise: never 401 (issue #12).
  'auth.session':                                          [200,   200,   200,   200],
  // The enrolment cell sends a wrong code: users reach the check (400), the enrolled admin is refused (409).
  'twoFactor.setup':                                       [401,   200,   200,   409],
  'twoFactor.enrol':                                       [401,   400,   400,   409],
  'twoFactor.verify':                                      [401,   409,   409,   200],
  'twoFactor.recover':                                     [401,   409,   409,   200],
  'utilisateurs.resetTwoFactor':                           [401,   403,   403,   200],
  'utilisateurs.roles':                                    [401,   200,   200,   200],
  'utilisateurs.options':                                  [401,   200,   200,   200],
  'utilisateurs.list':                                     [401,   403,   403,   200],
  'utilisateurs.create':                                   [401,   403,   403,   200],
  'utilisateurs.update':                                   [401,   403,   403,   200],
  'utilisateurs.resetPassword':                            [401,   403,   403,   200],
  'mail.failed':                                           [401,   403,   403,   200],
  'mail.retry':                                            [401,   403,   403,   200],
  'journal.list':                                          [401,   403,   403,   200],
  'journal.alerts':                                        [401,   403,   403,   200],
  'journal.markAlertSeen':                                 [401,   403,   403,   200],
  // ------------------------------------------------ tRPC: partners and projects
  'partenaires.list':                                      [401,   200,   200,   200],
  'partenaires.get':                                       [401,   200,   200,   200],
  'partenaires.create':                                    [401,   403,   403,   200],
  'partenaires.update':                                    [401,   403,   403,   200],
  'partenaires.delete':                                    [401,   403,   403,   200],
  'projects.list':                                         [401,   200,   200,   200],
  'projects.create':                                       [401,   403,   200,   200],
  // ------------------------------------------------ tRPC: reports
  'signalements.list':                                     [401,   200,   200,   200],
  'signalements.get':                                      [401,   200,   200,   200],
  'signalements.create':                                   [401,   200,   200,   200],
  'signalements.update':                                   [401,   403,   200,   200],
  'signalements.localisation':                             [401,   200,   200,   200],
  'signalements.updateLocalisation':                       [401,   403,   200,   200],
  'signalements.historique':                               [401,   200,   200,   200],
  'signalements.defaultMailContent':                       [401,   200,   200,   200],
  'signalements.notifyPartner':                            [401,   403,   200,   200],
  'auteurs.list':                                          [401,   200,   200,   200],
  'auteurs.create':                                        [401,   403,   200,   200],
  'auteurs.update':                                        [401,   403,   200,   200],
  'auteurs.delete':                                        [401,   403,   200,   200],
  'sources.list':                                          [401,   200,   200,   200],
  'sources.create':                                        [401,   403,   200,   200],
  'sources.update':                                        [401,   403,   200,   200],
  'sources.delete':                                        [401,   403,   200,   200],
  'victimes.list':                                         [401,   200,   200,   200],
  'victimes.create':                                       [401,   403,   200,   200],
  'victimes.update':                                       [401,   403,   200,   200],
  'victimes.delete':                                       [401,   403,   200,   200],
  // ------------------------------------------------ tRPC: reference lists and dashboard
  'referentiels.subjects':                                 [401,   200,   200,   200],
  'referentiels.canals':                                   [401,   200,   200,   200],
  'referentiels.niveaux':                                  [401,   200,   200,   200],
  'referentiels.statuts':                                  [401,   200,   200,   200],
  'referentiels.resultats':                                [401,   200,   200,   200],
  'referentiels.regions':                                  [401,   200,   200,   200],
  'referentiels.districts':                                [401,   200,   200,   200],
  'referentiels.communes':                                 [401,   200,   200,   200],
  'dashboard.keyMetrics':                                  [401,   200,   200,   200],
  'dashboard.perLocalisation':                             [401,   200,   200,   200],
  'dashboard.perCanal':                                    [401,   200,   200,   200],
  'dashboard.perDay':                                      [401,   200,   200,   200],
  'dashboard.perSubject':                                  [401,   200,   200,   200],
  'dashboard.perNiveau':                                   [401,   200,   200,   200],
  'dashboard.perResultat':                                 [401,   200,   200,   200],
  'dashboard.mapStyle':                                    [401,   200,   200,   200],
  'dashboard.overview.summary':                            [401,   200,   200,   200],
  'dashboard.overview.series':                             [401,   200,   200,   200],
  'dashboard.overview.distribution':                       [401,   200,   200,   200],
  'dashboard.overview.top':                                [401,   200,   200,   200],
  'dashboard.overview.perDay':                             [401,   200,   200,   200],
};

const CALLERS = ['anonymous', 'other user', 'creator', 'admin'] as const;
type Caller = (typeof CALLERS)[number];

const EMAIL: Record<Exclude<Caller, 'anonymous'>, string> = {
  'other user': 'autre@example.mg',
  creator: 'createur@example.mg',
  admin: 'admin@example.mg',
};
/** The address of the partner of the creator's report: the only one a non-admin may write to. */
const PARTNER_EMAIL = 'matrice@partenaire.example.mg';
/** Accounts the cells act on (never the callers themselves, so no cell changes a caller's rights). */
const TARGET = { user: 'cible@example.mg', login: 'connexion@example.mg', link: 'lien@example.mg' };

interface Call {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
  /** Overrides the caller's session (a fresh one for log-out); null sends none. */
  cookie?: string | null;
}

const proceduresOf = () => Object.keys(appRouter._def.procedures);

describe.each(await testEngines())('authorization matrix on %s', (engine) => {
  let t: TestApp;
  const cookies: Partial<Record<Caller, string>> = {};
  const data = { report: '', auteur: '', source: '', victime: '', partner: '', project: '', user: '' };
  let serial = 0;
  const unique = () => `${Date.now().toString(36)}${(serial++).toString(36)}`;

  beforeAll(async () => {
    t = await createTestApp(engine);
    await t.user(EMAIL['other user'], 'ROLE_USER', 'Rakoto Autre');
    await t.user(EMAIL.creator, 'ROLE_USER', 'Rabe Createur');
    await t.user(EMAIL.admin, 'ROLE_ADMIN', 'Rasoa Admin');
    data.user = await t.user(TARGET.user, 'ROLE_USER', 'Randria Cible');
    await t.user(TARGET.login, 'ROLE_USER', 'Ravelo Connexion');
    await t.user(TARGET.link, 'ROLE_USER', 'Razafy Lien');
    for (const caller of ['other user', 'creator', 'admin'] as const)
      cookies[caller] = await t.login(EMAIL[caller]);
    // The creator's report belongs to a partner with an address: the creator may create its projects
    // and write to that address (docs/decisions/0015), and nobody else has a report with it.
    data.partner = await newPartner();
    data.report = await createReport(t, cookies.creator!, { partenaire: `/api/partenaires/${data.partner}` });
    Object.assign(data, await addPeople(t, cookies.creator!, data.report));
    data.project = (
      await send('admin', {
        method: 'POST',
        url: '/api/projects',
        body: { sigle: 'MATRICE', designation: 'Projet matrice', owner: `/api/partenaires/${data.partner}` },
      })
    ).json().code;
    expect(Object.values(data).every(Boolean), JSON.stringify(data)).toBe(true);
  });
  afterAll(async () => t?.close());

  function send(caller: Caller, call: Call) {
    const cookie = call.cookie === undefined ? cookies[caller] : call.cookie;
    const method = call.method ?? 'GET';
    return t.app.inject({
      method,
      url: call.url,
      headers: {
        ...SAME_ORIGIN,
        ...(cookie ? { cookie } : {}),
        ...(call.body === undefined
          ? {}
          : {
              'content-type':
                method === 'PATCH' && call.url.startsWith('/api/')
                  ? 'application/merge-patch+json'
                  : 'application/json',
            }),
      },
      ...(call.body === undefined ? {} : { payload: JSON.stringify(call.body) }),
    });
  }

  async function newPartner(): Promise<string> {
    const res = await send('admin', {
      method: 'POST',
      url: '/api/partenaires',
      body: { designation: `Partenaire ${unique()}`, email: PARTNER_EMAIL },
    });
    if (res.statusCode !== 201) throw new Error(`partner: ${res.statusCode} ${res.body}`);
    return res.json().code;
  }
  const freshPeople = () => addPeople(t, cookies.creator!, data.report, ` ${unique()}`);
  /** A fresh session of the caller (log-out ends it), or none for the anonymous caller. */
  const freshSession = async (caller: Caller) => (caller === 'anonymous' ? null : t.login(EMAIL[caller]));
  const strongPassword = () => `Lakana-${randomBytes(8).toString('hex')}-Vato`;

  const query = (path: string, input?: unknown): Call => ({
    url: `/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
  });
  const mutation = (path: string, body: unknown = {}): Call => ({
    method: 'POST',
    url: `/trpc/${path}`,
    body,
  });

  const creation = () => ({
    partenaire: '/api/partenaires/IVY',
    subjects: ['/api/subjects/CORRUPTION'],
    canalPrincipal: '/api/canals/TELEPHONE',
    signalementAt: '2025-03-10',
  });

  /** One valid request per door; called once per caller, so destructive cells get fresh rows. */
  const REQUESTS: Record<string, (caller: Caller) => Call | Promise<Call>> = {
    'POST /api/login': () => ({
      method: 'POST',
      url: '/api/login',
      body: { email: TARGET.login, password: TEST_PASSWORD },
    }),
    'GET /api/health': () => ({ url: '/api/health' }),
    'GET /metrics': () => ({ url: '/metrics' }),
    'GET /api/definir-mot-de-passe/:token': async () => ({
      url: `/api/definir-mot-de-passe/${await passwordLinkToken(t, TARGET.link)}`,
    }),
    'POST /api/definir-mot-de-passe/:token': async () => ({
      method: 'POST',
      url: `/api/definir-mot-de-passe/${await passwordLinkToken(t, TARGET.link)}`,
      body: { password: strongPassword() },
    }),
    'GET /api/resume/signalements-details/:code': () => ({
      url: `/api/resume/signalements-details/${data.report}`,
    }),
    'GET /': () => ({ url: '/' }),
    'GET /admin': () => ({ url: '/admin' }),

    'POST /api/logout': async (caller) => ({
      method: 'POST',
      url: '/api/logout',
      cookie: await freshSession(caller),
    }),
    'GET /api/utilisateur/who-am-i': () => ({ url: '/api/utilisateur/who-am-i' }),
    'POST /api/two-factor/verify': (caller) => ({
      method: 'POST',
      url: '/api/two-factor/verify',
      body: { code: caller === 'admin' ? t.totp(EMAIL.admin) : '123456' },
    }),
    'POST /api/two-factor/recovery': (caller) => ({
      method: 'POST',
      url: '/api/two-factor/recovery',
      body: { code: caller === 'admin' ? t.recoveryCode(EMAIL.admin) : 'AAAA-BBBB-CCCC-DDDD' },
    }),
    'POST /api/utilisateur/reset-two-factor/:code': () => ({
      method: 'POST',
      url: `/api/utilisateur/reset-two-factor/${data.user}`,
    }),
    'GET /api/utilisateur_roles': () => ({ url: '/api/utilisateur_roles' }),
    'GET /api/utilisateurs': () => ({ url: '/api/utilisateurs?page=1&itemsPerPage=20' }),
    'POST /api/utilisateur/create-user': () => ({
      method: 'POST',
      url: '/api/utilisateur/create-user',
      body: {
        email: `nouveau-${unique()}@example.mg`,
        nomPrenom: 'Rakoto Nouveau',
        utilisateurRole: 'ROLE_USER',
      },
    }),
    'PATCH /api/utilisateurs/:code': () => ({
      method: 'PATCH',
      url: `/api/utilisateurs/${data.user}`,
      body: { nomPrenom: 'Randria Cible' },
    }),
    'GET /api/utilisateur/reset-password/:code': () => ({
      url: `/api/utilisateur/reset-password/${data.user}`,
    }),
    'GET /api/mail_outbox/failed': () => ({ url: '/api/mail_outbox/failed' }),
    'GET /api/journal-acces/export/xlsx': () => ({ url: '/api/journal-acces/export/xlsx?kind=connexion' }),
    'POST /api/mail_outbox/:id/retry': async () => ({
      method: 'POST',
      url: `/api/mail_outbox/${await insertFailedMail(t)}/retry`,
    }),

    'GET /api/partenaires': () => ({ url: '/api/partenaires?page=1' }),
    'GET /api/partenaires/:code': () => ({ url: `/api/partenaires/${data.partner}` }),
    'POST /api/partenaires': () => ({
      method: 'POST',
      url: '/api/partenaires',
      body: { designation: `Nouveau ${unique()}`, email: 'nouveau@partenaire.example.mg' },
    }),
    'PUT /api/partenaires/:code': () => ({
      method: 'PUT',
      url: `/api/partenaires/${data.partner}`,
      body: {
        designation: 'Partenaire Matrice',
        email: PARTNER_EMAIL,
        phoneNumber: '341234567',
      },
    }),
    'DELETE /api/partenaires/:code': async () => ({
      method: 'DELETE',
      url: `/api/partenaires/${await newPartner()}`,
    }),
    'GET /api/projects': () => ({ url: '/api/projects' }),
    'GET /api/projects/:code': () => ({ url: `/api/projects/${data.project}` }),
    'POST /api/projects': () => ({
      method: 'POST',
      url: '/api/projects',
      body: { sigle: `P${unique()}`, designation: 'Projet de la matrice', owner: `/api/partenaires/${data.partner}` },
    }),

    'GET /api/signalements': () => ({ url: '/api/signalements?page=1' }),
    'POST /api/signalements': () => ({ method: 'POST', url: '/api/signalements', body: creation() }),
    'GET /api/signalements/export/list': () => ({
      url: `/api/signalements/export/list?search=${data.report}`,
    }),
    'GET /api/signalements/export/xlsx': () => ({
      url: `/api/signalements/export/xlsx?search=${data.report}`,
    }),
    'GET /api/signalements/:code': () => ({ url: `/api/signalements/${data.report}` }),
    'PATCH /api/signalements/:code': () => ({
      method: 'PATCH',
      url: `/api/signalements/${data.report}`,
      body: { description: `Modifié ${unique()}` },
    }),
    'GET /api/signalements/:code/localisation': () => ({
      url: `/api/signalements/${data.report}/localisation`,
    }),
    'PATCH /api/signalements/:code/localisation': () => ({
      method: 'PATCH',
      url: `/api/signalements/${data.report}/localisation`,
      body: { fokontany: 'Ambohitra' },
    }),
    'PUT /api/signalements/:code/localisation': () => ({
      method: 'PUT',
      url: `/api/signalements/${data.report}/localisation`,
      body: { fokontany: 'Ambohimanga' },
    }),
    'GET /api/signalements/:code/auteurs': () => ({ url: `/api/signalements/${data.report}/auteurs` }),
    'GET /api/signalements/:code/source': () => ({ url: `/api/signalements/${data.report}/source` }),
    'GET /api/signalements/:code/victimes': () => ({ url: `/api/signalements/${data.report}/victimes` }),
    'GET /api/signalements/:code/historique': () => ({ url: `/api/signalements/${data.report}/historique` }),
    'GET /api/signalement/:code/default-mail-content': () => ({
      url: `/api/signalement/${data.report}/default-mail-content`,
    }),
    'POST /api/signalement/:code/notify-partner': () => ({
      method: 'POST',
      url: `/api/signalement/${data.report}/notify-partner`,
      body: { email: PARTNER_EMAIL, content: 'Bonjour, voici un signalement qui vous concerne.' },
    }),
    'POST /api/presume_auteurs': () => ({
      method: 'POST',
      url: '/api/presume_auteurs',
      body: { signalement: `/api/signalements/${data.report}`, nomPrenom: 'Rajaona Auteur' },
    }),
    'PATCH /api/presume_auteurs/:code': () => ({
      method: 'PATCH',
      url: `/api/presume_auteurs/${data.auteur}`,
      body: { nomPrenom: 'Randrianarisoa Auteur' },
    }),
    'DELETE /api/presume_auteurs/:code': async () => ({
      method: 'DELETE',
      url: `/api/presume_auteurs/${(await freshPeople()).auteur}`,
    }),
    'POST /api/sources': () => ({
      method: 'POST',
      url: '/api/sources',
      body: { signalement: `/api/signalements/${data.report}`, nomPrenom: 'Rasoa Source' },
    }),
    'PATCH /api/sources/:code': () => ({
      method: 'PATCH',
      url: `/api/sources/${data.source}`,
      body: { nomPrenom: 'Rasoanirina Source', canaux: [] },
    }),
    'DELETE /api/sources/:code': async () => ({
      method: 'DELETE',
      url: `/api/sources/${(await freshPeople()).source}`,
    }),
    'POST /api/victimes': () => ({
      method: 'POST',
      url: '/api/victimes',
      body: { signalement: `/api/signalements/${data.report}`, nomPrenom: 'Rabe Victime' },
    }),
    'PATCH /api/victimes/:code': () => ({
      method: 'PATCH',
      url: `/api/victimes/${data.victime}`,
      body: { nomPrenom: 'Rabearivelo Victime' },
    }),
    'DELETE /api/victimes/:code': async () => ({
      method: 'DELETE',
      url: `/api/victimes/${(await freshPeople()).victime}`,
    }),

    ...Object.fromEntries(
      ['subjects', 'canals', 'niveaux', 'statuts', 'resultats', 'regions', 'districts', 'communes'].map(
        (name) => [`GET /api/${name}`, () => ({ url: `/api/${name}` })],
      ),
    ),
    ...Object.fromEntries(
      [
        'key-metrics',
        'count-per-localisation',
        'count-per-canal-principal',
        'signalement-per-jour',
        'count-per-subject',
        'count-per-niveau',
        'count-per-resultat',
      ].map((name) => [
        `GET /api/dashboard/${name}`,
        () => ({ url: `/api/dashboard/${name}?dateStart=2025-01-01&dateEnd=2025-12-31` }),
      ]),
    ),

    'auth.login': () => mutation('auth.login', { email: TARGET.login, password: TEST_PASSWORD }),
    'passwordTokens.inspect': async () =>
      query('passwordTokens.inspect', { token: await passwordLinkToken(t, TARGET.link) }),
    'passwordTokens.define': async () =>
      mutation('passwordTokens.define', {
        token: await passwordLinkToken(t, TARGET.link),
        password: strongPassword(),
      }),
    'signalements.resume': () => query('signalements.resume', { code: data.report }),

    'auth.logout': async (caller) => ({ ...mutation('auth.logout'), cookie: await freshSession(caller) }),
    'auth.whoAmI': () => query('auth.whoAmI'),
    'auth.session': () => query('auth.session'),
    'twoFactor.setup': () => mutation('twoFactor.setup'),
    'twoFactor.enrol': () => mutation('twoFactor.enrol', { key: `${'A'.repeat(27)}=`, code: '000000' }),
    'twoFactor.verify': (caller) =>
      mutation('twoFactor.verify', { code: caller === 'admin' ? t.totp(EMAIL.admin) : '123456' }),
    'twoFactor.recover': (caller) =>
      mutation('twoFactor.recover', { code: caller === 'admin' ? t.recoveryCode(EMAIL.admin) : 'AAAA-BBBB-CCCC-DDDD' }),
    'utilisateurs.resetTwoFactor': () => mutation('utilisateurs.resetTwoFactor', { code: data.user }),
    'utilisateurs.roles': () => query('utilisateurs.roles'),
    'utilisateurs.options': () => query('utilisateurs.options', { search: 'ra' }),
    'utilisateurs.list': () => query('utilisateurs.list', {}),
    'utilisateurs.create': () =>
      mutation('utilisateurs.create', {
        email: `nouveau-${unique()}@example.mg`,
        nomPrenom: 'Rakoto Nouveau',
        utilisateurRole: 'ROLE_USER',
      }),
    'utilisateurs.update': () =>
      mutation('utilisateurs.update', { code: data.user, nomPrenom: 'Randria Cible' }),
    'utilisateurs.resetPassword': () => mutation('utilisateurs.resetPassword', { code: data.user }),
    'mail.failed': () => query('mail.failed'),
    'mail.retry': async () => mutation('mail.retry', { id: await insertFailedMail(t) }),
    'journal.list': () => query('journal.list', { page: 1, filters: {} }),
    'journal.alerts': () => query('journal.alerts'),
    'journal.markAlertSeen': async () => mutation('journal.markAlertSeen', { id: await insertAlert(t) }),

    'partenaires.list': () => query('partenaires.list', {}),
    'partenaires.get': () => query('partenaires.get', { code: data.partner }),
    'partenaires.create': () =>
      mutation('partenaires.create', {
        designation: `Nouveau ${unique()}`,
        email: 'nouveau@partenaire.example.mg',
      }),
    'partenaires.update': () =>
      mutation('partenaires.update', {
        code: data.partner,
        designation: 'Partenaire Matrice',
        email: PARTNER_EMAIL,
      }),
    'partenaires.delete': async () => mutation('partenaires.delete', { code: await newPartner() }),
    'projects.list': () => query('projects.list', {}),
    'projects.create': () =>
      mutation('projects.create', {
        sigle: `P${unique()}`,
        designation: 'Projet de la matrice',
        owner: data.partner,
      }),

    'signalements.list': () => query('signalements.list', {}),
    'signalements.get': () => query('signalements.get', { code: data.report }),
    'signalements.create': () =>
      mutation('signalements.create', {
        partenaire: 'IVY',
        subjects: ['CORRUPTION'],
        canalPrincipal: 'TELEPHONE',
        signalementAt: '2025-03-10',
      }),
    'signalements.update': () =>
      mutation('signalements.update', { code: data.report, patch: { description: `Modifié ${unique()}` } }),
    'signalements.localisation': () => query('signalements.localisation', { code: data.report }),
    'signalements.updateLocalisation': () =>
      mutation('signalements.updateLocalisation', { code: data.report, fokontany: 'Ambohitra' }),
    'signalements.historique': () => query('signalements.historique', { code: data.report }),
    'signalements.defaultMailContent': () => query('signalements.defaultMailContent', { code: data.report }),
    'signalements.notifyPartner': () =>
      mutation('signalements.notifyPartner', {
        code: data.report,
        email: PARTNER_EMAIL,
        content: 'Bonjour, voici un signalement qui vous concerne.',
      }),
    'auteurs.list': () => query('auteurs.list', { signalement: data.report }),
    'auteurs.create': () =>
      mutation('auteurs.create', { signalement: data.report, nomPrenom: 'Rajaona Auteur' }),
    'auteurs.update': () =>
      mutation('auteurs.update', { code: data.auteur, data: { nomPrenom: 'Randrianarisoa Auteur' } }),
    'auteurs.delete': async () => mutation('auteurs.delete', { code: (await freshPeople()).auteur }),
    'sources.list': () => query('sources.list', { signalement: data.report }),
    'sources.create': () =>
      mutation('sources.create', { signalement: data.report, nomPrenom: 'Rasoa Source' }),
    'sources.update': () =>
      mutation('sources.update', { code: data.source, data: { nomPrenom: 'Rasoanirina Source' } }),
    'sources.delete': async () => mutation('sources.delete', { code: (await freshPeople()).source }),
    'victimes.list': () => query('victimes.list', { signalement: data.report }),
    'victimes.create': () =>
      mutation('victimes.create', { signalement: data.report, nomPrenom: 'Rabe Victime' }),
    'victimes.update': () =>
      mutation('victimes.update', { code: data.victime, data: { nomPrenom: 'Rabearivelo Victime' } }),
    'victimes.delete': async () => mutation('victimes.delete', { code: (await freshPeople()).victime }),

    ...Object.fromEntries(
      ['subjects', 'canals', 'niveaux', 'statuts', 'resultats', 'regions', 'districts', 'communes'].map(
        (name) => [
          `referentiels.${name}`,
          () => query(`referentiels.${name}`, ['districts', 'communes'].includes(name) ? {} : undefined),
        ],
      ),
    ),
    ...Object.fromEntries(
      ['keyMetrics', 'perCanal', 'perDay', 'perSubject', 'perNiveau', 'perResultat'].map((name) => [
        `dashboard.${name}`,
        () => query(`dashboard.${name}`, { dateStart: '2025-01-01', dateEnd: '2025-12-31' }),
      ]),
    ),
    'dashboard.perLocalisation': () => query('dashboard.perLocalisation', { type: 'District' }),
    'dashboard.mapStyle': () => query('dashboard.mapStyle'),
    'dashboard.overview.distribution': () =>
      query('dashboard.overview.distribution', { period: 'month', dimension: 'region' }),
    ...Object.fromEntries(
      ['summary', 'series', 'top', 'perDay'].map((name) => [
        `dashboard.overview.${name}`,
        () => query(`dashboard.overview.${name}`, { period: 'year' }),
      ]),
    ),
  };

  it('has one row for every registered route and procedure, and no row for a door that is gone', () => {
    const routes = t.app.routeList
      // The tRPC endpoint's methods are covered procedure by procedure; the built client's files
      // (one route per file of dist/web, GET only: server/http/doors.test.ts) have no data.
      .filter((r) => !r.config.procedures && !('file' in r.config))
      .map((r) => `${r.method} ${r.url}`);
    const doors = [...routes, ...proceduresOf()].sort();
    expect(Object.keys(MATRIX).sort()).toEqual(doors);
    expect(Object.keys(REQUESTS).sort()).toEqual(doors);
  });

  it.each(Object.keys(MATRIX))('%s', async (door) => {
    const expected = MATRIX[door]!;
    const actual: number[] = [];
    const bodies: string[] = [];
    for (const caller of CALLERS) {
      const res = await send(caller, await REQUESTS[door]!(caller));
      actual.push(res.statusCode);
      bodies.push(`${caller}: ${res.statusCode} ${res.body.slice(0, 160)}`);
    }
    // Any success for a success, the exact status for everything else.
    const comparable = actual.map((status, i) =>
      status >= 200 && status < 300 && expected[i]! >= 200 && expected[i]! < 300 ? expected[i]! : status,
    );
    expect(comparable, bodies.join('\n')).toEqual([...expected]);
  });
});

// /metrics is the one door a setting opens, to a scraper's token and never to a session: the row above
// holds without METRICS_TOKEN; with it, the same four callers and a fifth, the scraper.
describe.each(await testEngines())('authorization matrix of GET /metrics with METRICS_TOKEN on %s', (engine) => {
  const TOKEN = 'jeton-de-la-matrice-0123456789';
  let t: TestApp;
  const cookies: Partial<Record<Caller, string>> = {};
  beforeAll(async () => {
    t = await createTestApp(engine, { METRICS_TOKEN: TOKEN });
    await t.user(EMAIL['other user'], 'ROLE_USER', 'Rakoto Autre');
    await t.user(EMAIL.creator, 'ROLE_USER', 'Rabe Createur');
    await t.user(EMAIL.admin, 'ROLE_ADMIN', 'Rasoa Admin');
    for (const caller of ['other user', 'creator', 'admin'] as const) cookies[caller] = await t.login(EMAIL[caller]);
  });
  afterAll(async () => t?.close());

  it('refuses every session (401) and answers the token alone (200)', async () => {
    const statuses = [];
    for (const caller of CALLERS) {
      const cookie = cookies[caller];
      statuses.push((await t.app.inject({ url: '/metrics', headers: cookie ? { cookie } : {} })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401]);
    expect((await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN.slice(0, -1)}` } })).statusCode).toBe(401);
  });
});
