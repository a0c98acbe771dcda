// One valid call per tRPC procedure of the authorization matrix (authorization-matrix.test.ts), built from
// authorization-matrix.requests.ts's helpers.
import { TEST_PASSWORD } from '#tests/helpers/app';
import {
  insertAlert,
  insertDeadWebhookDelivery,
  insertFailedMail,
  insertWebhookEndpoint,
  passwordLinkToken,
} from '#tests/helpers/report-fixture';
import type { MatrixRequests, RequestHelpers } from './authorization-matrix.requests';
import { EMAIL, PARTNER_EMAIL, TARGET } from './authorization-matrix.rules';

export function trpcRequests(helpers: RequestHelpers): MatrixRequests {
  const {
    data,
    unique,
    newPartner,
    freshPeople,
    freshNote,
    freshSession,
    app,
    strongPassword,
    query,
    mutation,
    freshStaff,
    assignedStaff,
    freshToken,
    freshSharedFilter,
    freshEvidence,
  } = helpers;
  return {
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
}
