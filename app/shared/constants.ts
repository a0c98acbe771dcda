// Business constants of the specification (§9) shared by the server and the client.

export const STATUT_KINDS = ['open', 'treated', 'closed'] as const;
export type StatutKind = (typeof STATUT_KINDS)[number];

/** The dimensions of the dashboard's per-day counts (table signalement_day_counts). */
export const DAY_COUNT_DIMENSIONS = [
  'total',
  'statut',
  'region',
  'district',
  'commune',
  'canal',
  'niveau',
  'resultat',
  'subject',
  'partenaire',
  'createur',
] as const;
export type DayCountDimension = (typeof DAY_COUNT_DIMENSIONS)[number];

export const ROLE_ADMIN = 'ROLE_ADMIN';
export const ROLE_USER = 'ROLE_USER';
/** Role required by a guarded route when it names none. */
export const DEFAULT_REQUIRED_ROLE = ROLE_ADMIN;
export const FALLBACK_PATH = '/dashboard';
export const BASE_PATH = '/admin';

export const OTHERS_CODE = 'OTHERS';
export const INTERNAL_PARTNER_CODE = 'IVY';

export const PAGE_SIZE_SIGNALEMENTS = 20;
export const PAGE_SIZE_UTILISATEURS = 20;
export const PAGE_SIZE_PARTENAIRES = 10;
export const OPTION_LIST_SIZE = 500;
export const FILTER_PICKER_SIZE = 300;
export const MAX_PAGE_LINKS = 5;
/**
 * The report list counts matches one by one (filters the day counts cannot answer) up to this many, or a
 * few pages past the current one if that is more; beyond, it shows « plus de N » (decision 0022).
 */
export const LIST_COUNT_CAP = 1000;
export const SEARCH_DEBOUNCE_MS = 300;
export const DEFAULT_DEBOUNCE_MS = 500;
export const PARTNER_SEARCH_DEBOUNCE_MS = 500;
export const MAX_PROJECT_AVATARS = 2;
export const OTHERS_BADGE_MAX_CHARS = 50;

export const PHONE_PREFIX = '+261';
export const PHONE_DIGITS = 9;
export const NAME_MIN_LENGTH = 2;
export const MAIL_CONTENT_MIN_LENGTH = 10;
export const DESIGNATION_MIN_LENGTH = 2;
export const INITIALS_MAX = 2;
export const PASSWORD_MIN_LENGTH = 12;

export const SIDEBAR_MOBILE_BREAKPOINT_PX = 768;
export const SIDEBAR_COOKIE_NAME = 'sidebar_state';
export const SIDEBAR_COOKIE_MAX_AGE_S = 604800;
export const SIDEBAR_WIDTH = '16rem';
export const SIDEBAR_WIDTH_MOBILE = '18rem';
export const SIDEBAR_WIDTH_ICON = '3rem';

export const MAP_DEFAULT_CENTER = { latitude: -18.7669, longitude: 46.8691 } as const;
export const MAP_DEFAULT_ZOOM = 6;

export const MIN_SIGNALEMENT_DATE = '1900-01-01';

/** Lifetime of an account set-up or password reset link (decision 0005: 48 h). */
export const PASSWORD_TOKEN_TTL_HOURS = 48;

/** Rows per page of the table beside the dashboard map (spec §2). */
export const MAP_TABLE_PAGE_SIZE = 8;

/** Calls in one tRPC batch: the client's httpBatchLink splits above it, the server refuses above it. */
export const TRPC_MAX_BATCH = 10;

/**
 * The tRPC creates that accept an Idempotency-Key (decision 0020): the client sends one per submission of a
 * form, alone in its request, and the same key when it sends the same submission again.
 */
export const IDEMPOTENT_CREATES: readonly string[] = [
  'signalements.create',
  'auteurs.create',
  'sources.create',
  'victimes.create',
  'notes.create',
  'partenaires.create',
  'projects.create',
  'utilisateurs.create',
];

/**
 * Kinds of access-log entries (decision 0015): reads of a report's people and notes, each note added, edited or
 * deleted (docs/decisions/0029-internal-notes.md), exports, rights, log-ins, prints of a report
 * (docs/decisions/0043-print-view.md).
 */
export const ACCESS_LOG_KINDS = [
  'lecture_personnes',
  'lecture_historique',
  'lecture_notes',
  'ecriture_notes',
  'lecture_pieces_jointes',
  'export',
  'droits',
  'connexion',
  'echec_connexion',
  'purge',
  'action_groupee',
  'parametres',
  'jeton_api',
  'impression',
] as const;
export type AccessLogKind = (typeof ACCESS_LOG_KINDS)[number];
export const PAGE_SIZE_ACCESS_LOG = 50;

/** Kinds of unusual-reading alerts raised from the access log. */
export const ACCESS_ALERT_KINDS = [
  'lecture_massive',
  'lecture_quotidienne',
  'export_massif',
  'export_quotidien',
] as const;
export type AccessAlertKind = (typeof ACCESS_ALERT_KINDS)[number];

/**
 * Internal notes (docs/decisions/0029-internal-notes.md): their author may edit or delete one for this many
 * minutes after writing it, by the server's clock; then it is frozen.
 */
export const NOTE_EDIT_MINUTES = 15;
/** The longest internal note, in characters. */
export const NOTE_MAX_LENGTH = 5000;

/** The most reports one bulk action changes (docs/decisions/0035-bulk-actions.md). */
export const BULK_MAX = 10_000;
/**
 * Evidence files (docs/decisions/0033-evidence-files.md): their uploader may delete one for this many minutes
 * after sending it (an administrator at any time); stored in encrypted blocks of EVIDENCE_CHUNK_BYTES.
 */
export const EVIDENCE_DELETE_MINUTES = 15;
export const EVIDENCE_CHUNK_BYTES = 256 * 1024;
/** The longest file name kept, in characters. */
export const EVIDENCE_NAME_MAX_LENGTH = 200;
/**
 * The due day (epoch-day number) of a report that has no handling deadline: no niveau, a niveau without
 * one, or a statut of the treated or closed kind (docs/decisions/0032-deadlines.md). Later than any day, so
 * such reports are never overdue and come last in a sort by due day.
 */
export const NO_DUE_DAY = 2_147_483_647;
/** Handling deadlines per niveau, in business days, as the specification sets them by default. */
export const DEFAULT_DELAIS_TRAITEMENT: Readonly<Record<string, number>> = {
  CRITIQUE: 7,
  ELEVE: 15,
  MOYEN: 30,
  FAIBLE: 60,
};
/** The « À échéance sous 7 jours » filter: due today or within this many calendar days. */
export const DUE_SOON_DAYS = 7;

/**
 * Partner API tokens (docs/decisions/0038-partner-api-tokens.md): what a token may do. Each REST route a token
 * reaches declares the scope it needs (route config `scope`); every other door refuses a token.
 */
export const API_TOKEN_SCOPES = ['signalements:create', 'signalements:read', 'webhooks:manage'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];
export const API_TOKEN_SCOPE_LABELS: Record<ApiTokenScope, string> = {
  'signalements:create': 'Déposer des signalements',
  'signalements:read': 'Lire le statut de ses signalements',
  'webhooks:manage': 'Enregistrer ses points de réception de webhooks',
};
/** The longest lifetime of a token, in days (a year): a partner's secret is renewed at least that often. */
export const API_TOKEN_MAX_DAYS = 366;

/** Saved filters « Mes filtres » (docs/decisions/0046-saved-filters.md): a name's length, and how many one user keeps. */
export const FILTRE_NOM_MAX = 80;
export const FILTRES_MAX_PAR_UTILISATEUR = 50;
/** The longest query string a saved filter may hold (the list's own limits stay well under it). */
export const FILTRE_REQUETE_MAX = 4000;
