// One valid request per door of the authorization matrix (authorization-matrix.test.ts), so that a success
// is really reachable and a refusal is the rule's, not a bad body. Called once per caller, so destructive
// cells get fresh rows.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { ROLE_ADMIN } from '#shared/constants';
import { createJeton } from '#server/domains/jetons-api/service';
import { TEST_PASSWORD, type TestApp } from '#tests/helpers/app';
import {
  insertAlert,
  insertAssignment,
  insertDeadWebhookDelivery,
  insertFailedMail,
  insertWebhookEndpoint,
  passwordLinkToken,
  type addPeople,
} from '#tests/helpers/report-fixture';
import { MINIMAL_REPORT } from '#tests/helpers/signalements';
import { EMAIL, PARTNER_EMAIL, TARGET, type Call, type Caller } from './authorization-matrix.rules';

/** The rows the cells act on, filled by the test's set-up. */
export interface MatrixData {
  report: string;
  auteur: string;
  source: string;
  victime: string;
  partner: string;
  project: string;
  user: string;
}

export interface MatrixFixture {
  t: TestApp;
  data: MatrixData;
  unique(): string;
  newPartner(): Promise<string>;
  freshPeople(): ReturnType<typeof addPeople>;
  /** A fresh internal note of the creator on the report (its author may change it for 15 minutes). */
  freshNote(): Promise<string>;
  /** A fresh session of the caller (log-out ends it), or none for the anonymous caller. */
  freshSession(caller: Caller): Promise<string | null>;
}

export function matrixRequests(fixture: MatrixFixture) {
  const { data, unique, newPartner, freshPeople, freshNote, freshSession } = fixture;
  // The test app exists once the test's set-up has run: read it when a request is built, not before.
  const app = () => fixture.t;
  const strongPassword = () => `Lakana-${randomBytes(8).toString('hex')}-Vato`;

  const query = (path: string, input?: unknown): Call => ({
    url: `/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
  });
  const mutation = (path: string, body: unknown = {}): Call => ({
    method: 'POST',
    url: `/trpc/${path}`,
    body,
  });

  const creation = () => ({ ...MINIMAL_REPORT });
  /** A fresh enabled account, so each caller's assignment is a first one. */
  const freshStaff = () => app().user(`assigne-${unique()}@example.mg`, 'ROLE_USER', 'Rasoa Assignée');
  /** A fresh account already assigned to the report, for each caller's unassignment. */
  const assignedStaff = async () => {
    const code = await freshStaff();
    await insertAssignment(app(), data.report, code);
    return code;
  };

  /** A fresh partner API token (its public id), created by the administrator, for each caller's revocation. */
  const freshToken = async () => {
    const u = app().db.t.utilisateurs;
    const [admin] = await app()
      .db.read.select({ id: u.id, code: u.code, email: u.email, nomPrenom: u.nomPrenom })
      .from(u)
      .where(eq(u.email, EMAIL.admin));
    const actor = {
      ...admin!,
      isEnabled: true,
      lastConnectionAt: null,
      role: { code: ROLE_ADMIN, designation: 'Administrateur' },
      twoFactorEnrolled: true,
    };
    const input = {
      partenaire: data.partner,
      nom: `Jeton ${unique()}`,
      scopes: ['signalements:read' as const],
    };
    return (await createJeton(app().db, actor, { ...input, dureeJours: 30 })).jeton.id;
  };

  /** A fresh shared saved filter of the creator (docs/decisions/0046), for each caller's rename or delete. */
  const freshSharedFilter = async (): Promise<number> => {
    const { utilisateurs: u, filtresEnregistres: f } = app().db.t;
    const [creator] = await app().db.read.select({ id: u.id }).from(u).where(eq(u.email, EMAIL.creator));
    const [row] = await app().db.transaction((tx) =>
      tx
        .insert(f)
        .values({
          nom: `Partagé ${unique()}`,
          requete: 'echeance=en_retard',
          ownerId: creator!.id,
          partage: true,
        })
        .returning({ id: f.id }),
    );
    return row!.id;
  };

  /** An evidence file's upload: a small PDF (its type is read from the content). */
  const evidenceUpload = (): Call => ({
    method: 'POST',
    url: `/api/signalements/${data.report}/pieces-jointes`,
    file: { payload: Buffer.from('%PDF-1.4\n%matrice\n'), headers: { 'x-nom-fichier': 'matrice.pdf' } },
  });
  /** A fresh evidence file of the creator on the report (its uploader may delete it for 15 minutes). */
  const freshEvidence = async (): Promise<string> => {
    const call = evidenceUpload();
    const res = await app().app.inject({
      method: 'POST',
      url: call.url,
      headers: {
        'sec-fetch-site': 'same-origin',
        cookie: await app().login(EMAIL.creator),
        'content-type': 'application/octet-stream',
        ...call.file!.headers,
      },
      payload: call.file!.payload,
    });
    if (res.statusCode !== 201) throw new Error(`evidence: ${res.statusCode} ${res.body}`);
    return res.json().code;
  };

  const REQUESTS: Record<string, (caller: Caller) => Call | Promise<Call>> = {
    'POST /api/login': () => ({
      method: 'POST',
      url: '/api/login',
      body: { email: TARGET.login, password: TEST_PASSWORD },
    }),
    'GET /api/health': () => ({ url: '/api/health' }),
    'GET /api': () => ({ url: '/api' }),
    'GET /api/docs.jsonld': () => ({ url: '/api/docs.jsonld' }),
    'GET /api/contexts/:resource': () => ({ url: '/api/contexts/Signalement' }),
    'GET /api/docs.json': () => ({ url: '/api/docs.json' }),
    'GET /api/docs': () => ({ url: '/api/docs' }),
    'GET /metrics': () => ({ url: '/metrics' }),
    'GET /api/definir-mot-de-passe/:token': async () => ({
      url: `/api/definir-mot-de-passe/${await passwordLinkToken(app(), TARGET.link)}`,
    }),
    'POST /api/definir-mot-de-passe/:token': async () => ({
      method: 'POST',
      url: `/api/definir-mot-de-passe/${await passwordLinkToken(app(), TARGET.link)}`,
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
      body: { code: caller === 'admin' ? app().totp(EMAIL.admin) : '123456' },
    }),
    'POST /api/two-factor/recovery': (caller) => ({
      method: 'POST',
      url: '/api/two-factor/recovery',
      body: { code: caller === 'admin' ? app().recoveryCode(EMAIL.admin) : 'AAAA-BBBB-CCCC-DDDD' },
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
      url: `/api/mail_outbox/${await insertFailedMail(app())}/retry`,
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
      body: {
        sigle: `P${unique()}`,
        designation: 'Projet de la matrice',
        owner: `/api/partenaires/${data.partner}`,
      },
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
    'GET /api/signalements/:code/assignes': () => ({ url: `/api/signalements/${data.report}/assignes` }),
    'POST /api/signalements/:code/assignes': async () => ({
      method: 'POST',
      url: `/api/signalements/${data.report}/assignes`,
      body: { utilisateur: `/api/utilisateurs/${await freshStaff()}` },
    }),
    'DELETE /api/signalements/:code/assignes/:utilisateur': async () => ({
      method: 'DELETE',
      url: `/api/signalements/${data.report}/assignes/${await assignedStaff()}`,
    }),
    'POST /api/signalements/actions-groupees/apercu': () => ({
      method: 'POST',
      url: '/api/signalements/actions-groupees/apercu',
      body: { codes: [data.report], action: { type: 'niveau', niveau: '/api/niveaux/MOYEN' } },
    }),
    'POST /api/signalements/actions-groupees': () => ({
      method: 'POST',
      url: '/api/signalements/actions-groupees',
      body: { codes: [data.report], action: { type: 'niveau', niveau: '/api/niveaux/MOYEN' } },
    }),
    'GET /api/dashboard/mes-dossiers': () => ({ url: '/api/dashboard/mes-dossiers' }),
    'GET /api/delais_traitement': () => ({ url: '/api/delais_traitement' }),
    'GET /api/delais_traitement/:code': () => ({ url: '/api/delais_traitement/CRITIQUE' }),
    'PATCH /api/delais_traitement/:code': () => ({
      method: 'PATCH',
      url: '/api/delais_traitement/MOYEN',
      body: { jours: 30 },
    }),
    'GET /api/utilisateur/preferences': () => ({ url: '/api/utilisateur/preferences' }),
    'PATCH /api/utilisateur/preferences': () => ({
      method: 'PATCH',
      url: '/api/utilisateur/preferences',
      body: { recapitulatifQuotidien: true },
    }),
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
    'GET /api/signalements/:code/notes': () => ({ url: `/api/signalements/${data.report}/notes` }),
    'POST /api/signalements/:code/notes': () => ({
      method: 'POST',
      url: `/api/signalements/${data.report}/notes`,
      body: { texte: 'Note de la matrice' },
    }),
    'PATCH /api/notes/:code': async () => ({
      method: 'PATCH',
      url: `/api/notes/${await freshNote()}`,
      body: { texte: 'Note de la matrice, revue' },
    }),
    'DELETE /api/notes/:code': async () => ({ method: 'DELETE', url: `/api/notes/${await freshNote()}` }),
    'GET /api/signalements/:code/pieces-jointes': () => ({
      url: `/api/signalements/${data.report}/pieces-jointes`,
    }),
    'POST /api/signalements/:code/pieces-jointes': evidenceUpload,
    'GET /api/pieces-jointes/:code/contenu': async () => ({
      url: `/api/pieces-jointes/${await freshEvidence()}/contenu`,
    }),
    'DELETE /api/pieces-jointes/:code': async () => ({
      method: 'DELETE',
      url: `/api/pieces-jointes/${await freshEvidence()}`,
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
      query('passwordTokens.inspect', { token: await passwordLinkToken(app(), TARGET.link) }),
    'passwordTokens.define': async () =>
      mutation('passwordTokens.define', {
        token: await passwordLinkToken(app(), TARGET.link),
        password: strongPassword(),
      }),
    'signalements.resume': () => query('signalements.resume', { code: data.report }),

    'auth.logout': async (caller) => ({ ...mutation('auth.logout'), cookie: await freshSession(caller) }),
    'auth.whoAmI': () => query('auth.whoAmI'),
    'auth.session': () => query('auth.session'),
    'auth.offlineKey': () => query('auth.offlineKey'),
    'twoFactor.setup': () => mutation('twoFactor.setup'),
    'twoFactor.enrol': () => mutation('twoFactor.enrol', { password: 'pas-le-mot-de-passe', code: '000000' }),
    'twoFactor.verify': (caller) =>
      mutation('twoFactor.verify', { code: caller === 'admin' ? app().totp(EMAIL.admin) : '123456' }),
    'twoFactor.recover': (caller) =>
      mutation('twoFactor.recover', {
        code: caller === 'admin' ? app().recoveryCode(EMAIL.admin) : 'AAAA-BBBB-CCCC-DDDD',
      }),
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
    'mail.retry': async () => mutation('mail.retry', { id: await insertFailedMail(app()) }),
    'webhooks.endpoints': () => query('webhooks.endpoints'),
    'webhooks.createEndpoint': () =>
      mutation('webhooks.createEndpoint', {
        partenaire: data.partner,
        url: 'https://matrice.example.mg/hook',
      }),
    'webhooks.setEndpointEnabled': async () =>
      mutation('webhooks.setEndpointEnabled', {
        id: await insertWebhookEndpoint(app(), data.partner),
        actif: false,
      }),
    'webhooks.rotateSecret': async () =>
      mutation('webhooks.rotateSecret', { id: await insertWebhookEndpoint(app(), data.partner) }),
    'webhooks.deleteEndpoint': async () =>
      mutation('webhooks.deleteEndpoint', { id: await insertWebhookEndpoint(app(), data.partner) }),
    'webhooks.deliveries': () => query('webhooks.deliveries', { state: 'dead' }),
    'webhooks.retryDelivery': async () =>
      mutation('webhooks.retryDelivery', { id: await insertDeadWebhookDelivery(app(), data.report) }),
    'journal.list': () => query('journal.list', { page: 1, filters: {} }),
    'journal.alerts': () => query('journal.alerts'),
    'delais.list': () => query('delais.list'),
    'delais.update': () => mutation('delais.update', { delais: [{ niveau: 'MOYEN', jours: 30 }] }),
    'preferences.get': () => query('preferences.get'),
    'preferences.update': () => mutation('preferences.update', { recapitulatifQuotidien: true }),
    'journal.markAlertSeen': async () => mutation('journal.markAlertSeen', { id: await insertAlert(app()) }),

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
    'signalements.impression': () =>
      query('signalements.impression', { code: data.report, historique: true }),
    'signalements.assignees': () => query('signalements.assignees', { code: data.report }),
    'signalements.assign': async () =>
      mutation('signalements.assign', { code: data.report, utilisateur: await freshStaff() }),
    'signalements.unassign': async () =>
      mutation('signalements.unassign', { code: data.report, utilisateur: await assignedStaff() }),
    'signalements.bulkPreview': () =>
      mutation('signalements.bulkPreview', {
        codes: [data.report],
        action: { type: 'statut', statut: 'EN_COURS' },
      }),
    'signalements.bulk': () =>
      mutation('signalements.bulk', { codes: [data.report], action: { type: 'statut', statut: 'EN_COURS' } }),
    'dashboard.myCases': () => query('dashboard.myCases'),
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
    'notes.list': () => query('notes.list', { signalement: data.report }),
    'notes.create': () => mutation('notes.create', { signalement: data.report, texte: 'Note de la matrice' }),
    'notes.update': async () =>
      mutation('notes.update', { code: await freshNote(), texte: 'Note de la matrice, revue' }),
    'notes.delete': async () => mutation('notes.delete', { code: await freshNote() }),
    'piecesJointes.list': () => query('piecesJointes.list', { signalement: data.report }),
    'piecesJointes.delete': async () => mutation('piecesJointes.delete', { code: await freshEvidence() }),

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
    'jetonsApi.list': () => query('jetonsApi.list', {}),
    'jetonsApi.create': () =>
      mutation('jetonsApi.create', {
        partenaire: data.partner,
        nom: `Jeton ${unique()}`,
        scopes: ['signalements:read'],
        dureeJours: 30,
      }),
    'jetonsApi.revoke': async () => mutation('jetonsApi.revoke', { id: await freshToken() }),
    'filtres.list': () => query('filtres.list'),
    'filtres.create': () =>
      mutation('filtres.create', {
        nom: `Filtre ${unique()}`,
        requete: 'echeance=en_retard',
        partage: false,
      }),
    'filtres.rename': async () =>
      mutation('filtres.rename', { id: await freshSharedFilter(), nom: `Filtre ${unique()}` }),
    'filtres.delete': async () => mutation('filtres.delete', { id: await freshSharedFilter() }),
  };
  return REQUESTS;
}
