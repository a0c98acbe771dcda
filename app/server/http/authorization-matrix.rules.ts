// The rules of the authorization matrix (authorization-matrix.test.ts): who may call what, every route and
// every procedure × five callers, as the status each caller gets. The rules come from spec §6 and
// docs/decisions/0011-report-rules.md and 0015-security-model.md; the services enforce them
// (server/domains/signalements/access.ts, server/domains/auth/guards.ts). Success is compared by class
// (201 and 204 are written where the door answers them, any 2xx passes); refusals exactly.
export type Row = readonly [
  anonymous: number,
  otherUser: number,
  creator: number,
  admin: number,
  partnerToken: number,
];

// prettier-ignore
export const MATRIX: Record<string, Row> = {
  //                                                        anon   other  creator admin  jeton
  // ------------------------------------------------ REST: public doors
  'POST /api/login':                                       [200,   200,   200,   200,   200],
  'GET /api/health':                                       [200,   200,   200,   200,   200],
  // Opened by METRICS_TOKEN only, never by a session; without the setting (as here) it does not exist.
  'GET /metrics':                                          [404,   404,   404,   404,   404],
  'GET /api/definir-mot-de-passe/:token':                  [200,   200,   200,   200,   200],
  'POST /api/definir-mot-de-passe/:token':                 [204,   204,   204,   204,   204],
  'GET /api/resume/signalements-details/:code':            [200,   200,   200,   200,   200],
  // The API's own documents: its shape, never its data (docs/decisions/0037-api-documents.md).
  'GET /api':                                              [200,   200,   200,   200,   200],
  'GET /api/docs.jsonld':                                  [200,   200,   200,   200,   200],
  'GET /api/contexts/:resource':                           [200,   200,   200,   200,   200],
  'GET /api/docs.json':                                    [200,   200,   200,   200,   200],
  'GET /api/docs':                                         [200,   200,   200,   200,   200],
  'GET /':                                                 [302,   302,   302,   302,   302],
  'GET /admin':                                            [302,   302,   302,   302,   302],
  // ------------------------------------------------ REST: session, accounts
  'POST /api/logout':                                      [401,   204,   204,   204,   403],
  'GET /api/utilisateur/who-am-i':                         [401,   200,   200,   200,   403],
  'GET /api/utilisateur_roles':                            [401,   200,   200,   200,   403],
  'GET /api/utilisateurs':                                 [401,   403,   403,   200,   403],
  'POST /api/utilisateur/create-user':                     [401,   403,   403,   201,   403],
  // ------------------------------------------------ REST: second factor (the admin is enrolled, the others are not)
  'POST /api/two-factor/verify':                           [401,   409,   409,   204,   403],
  'POST /api/two-factor/recovery':                         [401,   409,   409,   200,   403],
  'POST /api/utilisateur/reset-two-factor/:code':          [401,   403,   403,   204,   403],
  'PATCH /api/utilisateurs/:code':                         [401,   403,   403,   200,   403],
  'GET /api/utilisateur/reset-password/:code':             [401,   403,   403,   200,   403],
  'GET /api/mail_outbox/failed':                           [401,   403,   403,   200,   403],
  'POST /api/mail_outbox/:id/retry':                       [401,   403,   403,   200,   403],
  'GET /api/journal-acces/export/xlsx':                     [401,   403,   403,   200,   403],
  // ------------------------------------------------ REST: partners and projects
  'GET /api/partenaires':                                  [401,   200,   200,   200,   403],
  'GET /api/partenaires/:code':                            [401,   200,   200,   200,   403],
  'POST /api/partenaires':                                 [401,   403,   403,   201,   403],
  'PUT /api/partenaires/:code':                            [401,   403,   403,   200,   403],
  'DELETE /api/partenaires/:code':                         [401,   403,   403,   204,   403],
  // ------------------------------------------------ REST: a partner's own webhook endpoints (docs/decisions/0051), its token only
  'GET /api/webhooks':                                     [401,   403,   403,   403,   200],
  'POST /api/webhooks':                                    [401,   403,   403,   403,   201],
  'GET /api/webhooks/:id':                                 [401,   403,   403,   403,   200],
  'POST /api/webhooks/:id/secret':                         [401,   403,   403,   403,   200],
  'DELETE /api/webhooks/:id':                              [401,   403,   403,   403,   204],
  'GET /api/projects':                                     [401,   200,   200,   200,   403],
  'GET /api/projects/:code':                               [401,   200,   200,   200,   403],
  'POST /api/projects':                                    [401,   403,   201,   201,   403],
  // ------------------------------------------------ REST: reports (read: any session; change: creator or admin)
  'GET /api/signalements':                                 [401,   200,   200,   200,   200],
  'POST /api/signalements':                                [401,   201,   201,   201,   201],
  'GET /api/signalements/export/list':                     [401,   200,   200,   200,   403],
  'GET /api/signalements/export/xlsx':                     [401,   200,   200,   200,   403],
  'GET /api/signalements/:code':                           [401,   200,   200,   200,   200],
  'PATCH /api/signalements/:code':                         [401,   403,   200,   200,   403],
  'GET /api/signalements/:code/localisation':              [401,   200,   200,   200,   403],
  'PATCH /api/signalements/:code/localisation':            [401,   403,   200,   200,   403],
  'PUT /api/signalements/:code/localisation':              [401,   403,   200,   200,   403],
  'GET /api/signalements/:code/auteurs':                   [401,   200,   200,   200,   403],
  'GET /api/signalements/:code/source':                    [401,   200,   200,   200,   403],
  'GET /api/signalements/:code/victimes':                  [401,   200,   200,   200,   403],
  'GET /api/signalements/:code/historique':                [401,   200,   200,   200,   403],
  // Assignees (docs/decisions/0028): anyone reads them, the creator and administrators change them.
  'GET /api/signalements/:code/assignes':                  [401,   200,   200,   200,   403],
  'POST /api/signalements/:code/assignes':                 [401,   403,   201,   201,   403],
  'DELETE /api/signalements/:code/assignes/:utilisateur':  [401,   403,   204,   204,   403],
  'GET /api/dashboard/mes-dossiers':                       [401,   200,   200,   200,   403],
  // Bulk actions (docs/decisions/0035-bulk-actions.md): refused as a whole when one report is not the caller's.
  'POST /api/signalements/actions-groupees/apercu':        [401,   403,   200,   200,   403],
  'POST /api/signalements/actions-groupees':               [401,   403,   200,   200,   403],
  // Handling deadlines (docs/decisions/0032): any staff member reads them, administrators change them.
  'GET /api/delais_traitement':                            [401,   200,   200,   200,   403],
  'GET /api/delais_traitement/:code':                      [401,   200,   200,   200,   403],
  'PATCH /api/delais_traitement/:code':                    [401,   403,   403,   200,   403],
  // Each staff member's own preferences (docs/decisions/0036): the session's user, never another one.
  'GET /api/utilisateur/preferences':                      [401,   200,   200,   200,   403],
  'PATCH /api/utilisateur/preferences':                    [401,   200,   200,   200,   403],
  'GET /api/signalement/:code/default-mail-content':       [401,   200,   200,   200,   403],
  'POST /api/signalement/:code/notify-partner':            [401,   403,   200,   200,   403],
  'POST /api/presume_auteurs':                             [401,   403,   201,   201,   403],
  'PATCH /api/presume_auteurs/:code':                      [401,   403,   200,   200,   403],
  'DELETE /api/presume_auteurs/:code':                     [401,   403,   204,   204,   403],
  'POST /api/sources':                                     [401,   403,   201,   201,   403],
  'PATCH /api/sources/:code':                              [401,   403,   200,   200,   403],
  'DELETE /api/sources/:code':                             [401,   403,   204,   204,   403],
  'POST /api/victimes':                                    [401,   403,   201,   201,   403],
  'PATCH /api/victimes/:code':                             [401,   403,   200,   200,   403],
  'DELETE /api/victimes/:code':                            [401,   403,   204,   204,   403],
  // Internal notes (docs/decisions/0029): read with the report, added by who may edit it; a note is changed
  // by its author alone (the creator's own note here, fresh for each caller), administrators included.
  'GET /api/signalements/:code/notes':                     [401,   200,   200,   200,   403],
  'POST /api/signalements/:code/notes':                    [401,   403,   201,   201,   403],
  'PATCH /api/notes/:code':                                [401,   403,   200,   403,   403],
  'DELETE /api/notes/:code':                               [401,   403,   204,   403,   403],
  // Evidence files (docs/decisions/0033): read and downloaded with the report, attached by who may edit it,
  // deleted by their uploader (the creator's own file here, fresh for each caller) or an administrator.
  'GET /api/signalements/:code/pieces-jointes':            [401,   200,   200,   200,   403],
  'POST /api/signalements/:code/pieces-jointes':           [401,   403,   201,   201,   403],
  'GET /api/pieces-jointes/:code/contenu':                 [401,   200,   200,   200,   403],
  'DELETE /api/pieces-jointes/:code':                      [401,   403,   204,   204,   403],
  // ------------------------------------------------ REST: reference lists and dashboard
  'GET /api/subjects':                                     [401,   200,   200,   200,   403],
  'GET /api/canals':                                       [401,   200,   200,   200,   403],
  'GET /api/niveaux':                                      [401,   200,   200,   200,   403],
  'GET /api/statuts':                                      [401,   200,   200,   200,   403],
  'GET /api/resultats':                                    [401,   200,   200,   200,   403],
  'GET /api/regions':                                      [401,   200,   200,   200,   403],
  'GET /api/districts':                                    [401,   200,   200,   200,   403],
  'GET /api/communes':                                     [401,   200,   200,   200,   403],
  'GET /api/dashboard/key-metrics':                        [401,   200,   200,   200,   403],
  'GET /api/dashboard/count-per-localisation':             [401,   200,   200,   200,   403],
  'GET /api/dashboard/count-per-canal-principal':          [401,   200,   200,   200,   403],
  'GET /api/dashboard/signalement-per-jour':               [401,   200,   200,   200,   403],
  'GET /api/dashboard/count-per-subject':                  [401,   200,   200,   200,   403],
  'GET /api/dashboard/count-per-niveau':                   [401,   200,   200,   200,   403],
  'GET /api/dashboard/count-per-resultat':                 [401,   200,   200,   200,   403],
  // ------------------------------------------------ tRPC: public procedures
  'auth.login':                                            [200,   200,   200,   200,   403],
  'passwordTokens.inspect':                                [200,   200,   200,   200,   403],
  'passwordTokens.define':                                 [200,   200,   200,   200,   403],
  'signalements.resume':                                   [200,   200,   200,   200,   403],
  // ------------------------------------------------ tRPC: session, accounts
  'auth.logout':                                           [401,   200,   200,   200,   403],
  'auth.whoAmI':                                           [401,   200,   200,   200,   403],
  // null for an anonymous caller, the caller's own user otherwise: never 401 (a visit without a session logs
  // no failed request).
  'auth.session':                                          [200,   200,   200,   200,   403],
  // The caller's own session's offline-store key (decision 0048): any logged-in session; null (200) for an
  // anonymous caller, as auth.session (offline-key.test.ts checks that no key is given).
  'auth.offlineKey':                                       [200,   200,   200,   200,   403],
  // The enrolment cell sends a wrong code: users reach the check (400), the enrolled admin is refused (409).
  'twoFactor.setup':                                       [401,   200,   200,   409,   403],
  'twoFactor.enrol':                                       [401,   400,   400,   409,   403],
  'twoFactor.verify':                                      [401,   409,   409,   200,   403],
  'twoFactor.recover':                                     [401,   409,   409,   200,   403],
  'utilisateurs.resetTwoFactor':                           [401,   403,   403,   200,   403],
  'utilisateurs.roles':                                    [401,   200,   200,   200,   403],
  'utilisateurs.options':                                  [401,   200,   200,   200,   403],
  'utilisateurs.list':                                     [401,   403,   403,   200,   403],
  'utilisateurs.create':                                   [401,   403,   403,   200,   403],
  'utilisateurs.update':                                   [401,   403,   403,   200,   403],
  'utilisateurs.resetPassword':                            [401,   403,   403,   200,   403],
  'mail.failed':                                           [401,   403,   403,   200,   403],
  'mail.retry':                                            [401,   403,   403,   200,   403],
  'webhooks.endpoints':                                    [401,   403,   403,   200,   403],
  'webhooks.createEndpoint':                               [401,   403,   403,   200,   403],
  'webhooks.setEndpointEnabled':                           [401,   403,   403,   200,   403],
  'webhooks.rotateSecret':                                 [401,   403,   403,   200,   403],
  'webhooks.deleteEndpoint':                               [401,   403,   403,   200,   403],
  'webhooks.deliveries':                                   [401,   403,   403,   200,   403],
  'webhooks.retryDelivery':                                [401,   403,   403,   200,   403],
  'journal.list':                                          [401,   403,   403,   200,   403],
  'journal.alerts':                                        [401,   403,   403,   200,   403],
  'journal.markAlertSeen':                                 [401,   403,   403,   200,   403],
  // ------------------------------------------------ tRPC: partners and projects
  'partenaires.list':                                      [401,   200,   200,   200,   403],
  'partenaires.get':                                       [401,   200,   200,   200,   403],
  'partenaires.create':                                    [401,   403,   403,   200,   403],
  'partenaires.update':                                    [401,   403,   403,   200,   403],
  'partenaires.delete':                                    [401,   403,   403,   200,   403],
  'projects.list':                                         [401,   200,   200,   200,   403],
  'projects.create':                                       [401,   403,   200,   200,   403],
  // ------------------------------------------------ tRPC: reports
  'signalements.list':                                     [401,   200,   200,   200,   403],
  'signalements.get':                                      [401,   200,   200,   200,   403],
  'signalements.create':                                   [401,   200,   200,   200,   403],
  'signalements.update':                                   [401,   403,   200,   200,   403],
  'signalements.localisation':                             [401,   200,   200,   200,   403],
  'signalements.updateLocalisation':                       [401,   403,   200,   200,   403],
  'signalements.historique':                               [401,   200,   200,   200,   403],
  'signalements.impression':                               [401,   200,   200,   200,   403],
  'signalements.assignees':                                [401,   200,   200,   200,   403],
  'signalements.assign':                                   [401,   403,   200,   200,   403],
  'signalements.bulkPreview':                              [401,   403,   200,   200,   403],
  'signalements.bulk':                                     [401,   403,   200,   200,   403],
  'signalements.unassign':                                 [401,   403,   200,   200,   403],
  'dashboard.myCases':                                     [401,   200,   200,   200,   403],
  'delais.list':                                           [401,   200,   200,   200,   403],
  'delais.update':                                         [401,   403,   403,   200,   403],
  'preferences.get':                                       [401,   200,   200,   200,   403],
  'preferences.update':                                    [401,   200,   200,   200,   403],
  'signalements.defaultMailContent':                       [401,   200,   200,   200,   403],
  'signalements.notifyPartner':                            [401,   403,   200,   200,   403],
  'auteurs.list':                                          [401,   200,   200,   200,   403],
  'auteurs.create':                                        [401,   403,   200,   200,   403],
  'auteurs.update':                                        [401,   403,   200,   200,   403],
  'auteurs.delete':                                        [401,   403,   200,   200,   403],
  'sources.list':                                          [401,   200,   200,   200,   403],
  'sources.create':                                        [401,   403,   200,   200,   403],
  'sources.update':                                        [401,   403,   200,   200,   403],
  'sources.delete':                                        [401,   403,   200,   200,   403],
  'victimes.list':                                         [401,   200,   200,   200,   403],
  'victimes.create':                                       [401,   403,   200,   200,   403],
  'victimes.update':                                       [401,   403,   200,   200,   403],
  'victimes.delete':                                       [401,   403,   200,   200,   403],
  'notes.list':                                            [401,   200,   200,   200,   403],
  'notes.create':                                          [401,   403,   200,   200,   403],
  'notes.update':                                          [401,   403,   200,   403,   403],
  'notes.delete':                                          [401,   403,   200,   403,   403],
  'piecesJointes.list':                                    [401,   200,   200,   200,   403],
  'piecesJointes.delete':                                  [401,   403,   200,   200,   403],
  // ------------------------------------------------ tRPC: reference lists and dashboard
  'referentiels.subjects':                                 [401,   200,   200,   200,   403],
  'referentiels.canals':                                   [401,   200,   200,   200,   403],
  'referentiels.niveaux':                                  [401,   200,   200,   200,   403],
  'referentiels.statuts':                                  [401,   200,   200,   200,   403],
  'referentiels.resultats':                                [401,   200,   200,   200,   403],
  'referentiels.regions':                                  [401,   200,   200,   200,   403],
  'referentiels.districts':                                [401,   200,   200,   200,   403],
  'referentiels.communes':                                 [401,   200,   200,   200,   403],
  'dashboard.keyMetrics':                                  [401,   200,   200,   200,   403],
  'dashboard.perLocalisation':                             [401,   200,   200,   200,   403],
  'dashboard.perCanal':                                    [401,   200,   200,   200,   403],
  'dashboard.perDay':                                      [401,   200,   200,   200,   403],
  'dashboard.perSubject':                                  [401,   200,   200,   200,   403],
  'dashboard.perNiveau':                                   [401,   200,   200,   200,   403],
  'dashboard.perResultat':                                 [401,   200,   200,   200,   403],
  'dashboard.mapStyle':                                    [401,   200,   200,   200,   403],
  'dashboard.overview.summary':                            [401,   200,   200,   200,   403],
  'dashboard.overview.series':                             [401,   200,   200,   200,   403],
  'dashboard.overview.distribution':                       [401,   200,   200,   200,   403],
  'dashboard.overview.top':                                [401,   200,   200,   200,   403],
  // ------------------------------------------------ tRPC: partner API tokens (docs/decisions/0038), administrators only
  'jetonsApi.list':                                        [401,   403,   403,   200,   403],
  'jetonsApi.create':                                      [401,   403,   403,   200,   403],
  'jetonsApi.revoke':                                      [401,   403,   403,   200,   403],
  // ------------------------------------------------ tRPC: saved filters (docs/decisions/0046-saved-filters.md)
  // Any staff member keeps their own; a shared filter (the creator's, here) is renamed or deleted by its
  // owner or an administrator; another user's personal filter is not found (filtres.test.ts).
  'filtres.list':                                          [401,   200,   200,   200,   403],
  'filtres.create':                                        [401,   200,   200,   200,   403],
  'filtres.rename':                                        [401,   403,   200,   200,   403],
  'filtres.delete':                                        [401,   403,   200,   200,   403],
  'dashboard.overview.perDay':                             [401,   200,   200,   200,   403],
};

/**
 * « jeton partenaire »: a partner API token of the report's partner with every scope, sent alone (no cookie);
 * it reaches the REST routes that declare one of its scopes and nothing else (docs/decisions/0038). On a
 * public route the header is ignored: it gets what an anonymous caller gets.
 */
export const CALLERS = ['anonymous', 'other user', 'creator', 'admin', 'jeton partenaire'] as const;
export type Caller = (typeof CALLERS)[number];
/** The callers that hold a session. */
export type StaffCaller = Exclude<Caller, 'anonymous' | 'jeton partenaire'>;

export const EMAIL: Record<StaffCaller, string> = {
  'other user': 'autre@example.mg',
  creator: 'createur@example.mg',
  admin: 'admin@example.mg',
};
/** The address of the partner of the creator's report: the only one a non-admin may write to. */
export const PARTNER_EMAIL = 'matrice@partenaire.example.mg';
/** Accounts the cells act on (never the callers themselves, so no cell changes a caller's rights). */
export const TARGET = { user: 'cible@example.mg', login: 'connexion@example.mg', link: 'lien@example.mg' };

export interface Call {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
  /** A binary body (an evidence file's upload) sent as application/octet-stream with these headers. */
  file?: { payload: Buffer; headers: Record<string, string> };
  /** Overrides the caller's session (a fresh one for log-out); null sends none. */
  cookie?: string | null;
}
