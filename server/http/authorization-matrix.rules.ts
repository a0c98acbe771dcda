// The rules of the authorization matrix (authorization-matrix.test.ts): who may call what, every route and
// every procedure × four callers, as the status each caller gets. The rules come from spec §6 and
// docs/decisions/0011-report-rules.md and 0015-security-model.md; the services enforce them
// (server/domains/signalements/access.ts, server/domains/auth/guards.ts). Success is compared by class
// (201 and 204 are written where the door answers them, any 2xx passes); refusals exactly.
export type Row = readonly [anonymous: number, otherUser: number, creator: number, admin: number];

// prettier-ignore
export const MATRIX: Record<string, Row> = {
  //                                                        anon   other  creator admin
  // ------------------------------------------------ REST: public doors
  'POST /api/login':                                       [200,   200,   200,   200],
  'GET /api/health':                                       [200,   200,   200,   200],
  // Opened by METRICS_TOKEN only, never by a session; without the setting (as here) it does not exist.
  'GET /metrics':                                          [404,   404,   404,   404],
  'GET /api/definir-mot-de-passe/:token':                  [200,   200,   200,   200],
  'POST /api/definir-mot-de-passe/:token':                 [204,   204,   204,   204],
  'GET /api/resume/signalements-details/:code':            [200,   200,   200,   200],
  // The API's own documents: its shape, never its data (docs/decisions/0037-api-documents.md).
  'GET /api':                                              [200,   200,   200,   200],
  'GET /api/docs.jsonld':                                  [200,   200,   200,   200],
  'GET /api/contexts/:resource':                           [200,   200,   200,   200],
  'GET /api/docs.json':                                    [200,   200,   200,   200],
  'GET /api/docs':                                         [200,   200,   200,   200],
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
  // Assignees (docs/decisions/0028): anyone reads them, the creator and administrators change them.
  'GET /api/signalements/:code/assignes':                  [401,   200,   200,   200],
  'POST /api/signalements/:code/assignes':                 [401,   403,   201,   201],
  'DELETE /api/signalements/:code/assignes/:utilisateur':  [401,   403,   204,   204],
  'GET /api/dashboard/mes-dossiers':                       [401,   200,   200,   200],
  // Bulk actions (docs/decisions/0035-bulk-actions.md): refused as a whole when one report is not the caller's.
  'POST /api/signalements/actions-groupees/apercu':        [401,   403,   200,   200],
  'POST /api/signalements/actions-groupees':               [401,   403,   200,   200],
  // Handling deadlines (docs/decisions/0032): any staff member reads them, administrators change them.
  'GET /api/delais_traitement':                            [401,   200,   200,   200],
  'GET /api/delais_traitement/:code':                      [401,   200,   200,   200],
  'PATCH /api/delais_traitement/:code':                    [401,   403,   403,   200],
  // Each staff member's own preferences (docs/decisions/0036): the session's user, never another one.
  'GET /api/utilisateur/preferences':                      [401,   200,   200,   200],
  'PATCH /api/utilisateur/preferences':                    [401,   200,   200,   200],
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
  // Internal notes (docs/decisions/0029): read with the report, added by who may edit it; a note is changed
  // by its author alone (the creator's own note here, fresh for each caller), administrators included.
  'GET /api/signalements/:code/notes':                     [401,   200,   200,   200],
  'POST /api/signalements/:code/notes':                    [401,   403,   201,   201],
  'PATCH /api/notes/:code':                                [401,   403,   200,   403],
  'DELETE /api/notes/:code':                               [401,   403,   204,   403],
  // Evidence files (docs/decisions/0033): read and downloaded with the report, attached by who may edit it,
  // deleted by their uploader (the creator's own file here, fresh for each caller) or an administrator.
  'GET /api/signalements/:code/pieces-jointes':            [401,   200,   200,   200],
  'POST /api/signalements/:code/pieces-jointes':           [401,   403,   201,   201],
  'GET /api/pieces-jointes/:code/contenu':                 [401,   200,   200,   200],
  'DELETE /api/pieces-jointes/:code':                      [401,   403,   204,   204],
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
  // null for an anonymous caller, the caller's own user otherwise: never 401 (a visit without a session logs
  // no failed request).
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
  'signalements.assignees':                                [401,   200,   200,   200],
  'signalements.assign':                                   [401,   403,   200,   200],
  'signalements.bulkPreview':                              [401,   403,   200,   200],
  'signalements.bulk':                                     [401,   403,   200,   200],
  'signalements.unassign':                                 [401,   403,   200,   200],
  'dashboard.myCases':                                     [401,   200,   200,   200],
  'delais.list':                                           [401,   200,   200,   200],
  'delais.update':                                         [401,   403,   403,   200],
  'preferences.get':                                       [401,   200,   200,   200],
  'preferences.update':                                    [401,   200,   200,   200],
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
  'notes.list':                                            [401,   200,   200,   200],
  'notes.create':                                          [401,   403,   200,   200],
  'notes.update':                                          [401,   403,   200,   403],
  'notes.delete':                                          [401,   403,   200,   403],
  'piecesJointes.list':                                    [401,   200,   200,   200],
  'piecesJointes.delete':                                  [401,   403,   200,   200],
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

export const CALLERS = ['anonymous', 'other user', 'creator', 'admin'] as const;
export type Caller = (typeof CALLERS)[number];

export const EMAIL: Record<Exclude<Caller, 'anonymous'>, string> = {
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
