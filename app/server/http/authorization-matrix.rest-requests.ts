// One valid request per REST door of the authorization matrix (authorization-matrix.test.ts), built from
// authorization-matrix.requests.ts's helpers: public pages, sessions, users, partners, reports and the rest.
import { TEST_PASSWORD } from '#tests/helpers/app';
import { insertFailedMail, passwordLinkToken } from '#tests/helpers/report-fixture';
import type { MatrixRequests, RequestHelpers } from './authorization-matrix.requests';
import { EMAIL, PARTNER_EMAIL, TARGET } from './authorization-matrix.rules';

export function restRequests(helpers: RequestHelpers): MatrixRequests {
  const {
    data,
    unique,
    newPartner,
    freshPeople,
    freshNote,
    freshSession,
    app,
    strongPassword,
    creation,
    freshStaff,
    assignedStaff,
    evidenceUpload,
    freshEvidence,
    freshPartnerEndpoint,
  } = helpers;
  return {
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
    // A partner's own webhook endpoints (docs/decisions/0051): its token only.
    'GET /api/webhooks': () => ({ url: '/api/webhooks' }),
    'POST /api/webhooks': async () => {
      await freshPartnerEndpoint();
      return {
        method: 'POST',
        url: '/api/webhooks',
        body: { url: `https://m-${unique()}.partenaire.example/` },
      };
    },
    'GET /api/webhooks/:id': async () => ({ url: `/api/webhooks/${await freshPartnerEndpoint()}` }),
    'POST /api/webhooks/:id/secret': async () => ({
      method: 'POST',
      url: `/api/webhooks/${await freshPartnerEndpoint()}/secret`,
    }),
    'DELETE /api/webhooks/:id': async () => ({
      method: 'DELETE',
      url: `/api/webhooks/${await freshPartnerEndpoint()}`,
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
  };
}
