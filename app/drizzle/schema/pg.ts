// PostgreSQL schema. drizzle/schema/sqlite.ts declares the same tables, columns, keys and indexes with
// the same export names; drizzle/schema/schema.test.ts fails when the two drift apart.
import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable as table,
  primaryKey,
  text,
  timestamp as pgTimestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { AccessAlertKind, AccessLogKind, DayCountDimension, StatutKind } from '#shared/constants';
import { NO_DUE_DAY } from '#shared/constants';

const id = () => integer('id').primaryKey().generatedByDefaultAsIdentity();
const ref = (name: string) => integer(name);
const bool = (name: string) => boolean(name);
const timestamp = (name: string) => pgTimestamp(name, { withTimezone: true, mode: 'date', precision: 3 });
const createdAt = () => timestamp('created_at').notNull().defaultNow();
const float = (name: string) => doublePrecision(name);
const stringList = (name: string) => jsonb(name).$type<string[]>();
const json = <T>(name: string) => jsonb(name).$type<T>();
const bytes = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

// ---------------------------------------------------------------- accounts
export const utilisateurRoles = table('utilisateur_roles', {
  id: id(),
  code: text('code').notNull().unique(),
  designation: text('designation').notNull(),
});

export const utilisateurs = table(
  'utilisateurs',
  {
    id: id(),
    code: text('code').notNull().unique(),
    // Always stored lower-cased, which makes the unique index case-insensitive.
    email: text('email').notNull().unique(),
    nomPrenom: text('nom_prenom').notNull(),
    passwordHash: text('password_hash'),
    isEnabled: bool('is_enabled').notNull().default(true),
    roleId: ref('role_id')
      .notNull()
      .references(() => utilisateurRoles.id),
    lastConnectionAt: timestamp('last_connection_at'),
    createdAt: createdAt(),
    // The daily reminder e-mail (docs/decisions/0036-daily-reminders.md); each user turns their own off.
    digestEnabled: bool('digest_enabled').notNull().default(true),
  },
  (t) => [index('utilisateurs_nom_prenom_idx').on(t.nomPrenom), index('utilisateurs_role_idx').on(t.roleId)],
);

export const sessions = table(
  'sessions',
  {
    // SHA-256 (hex) of the token held by the browser; the token itself is never stored.
    id: text('id').primaryKey(),
    userId: ref('user_id')
      .notNull()
      .references(() => utilisateurs.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at').notNull(),
    // Lucia's two-factor guide: the second factor was checked for this session (or is not needed).
    twoFactorVerified: bool('two_factor_verified').notNull().default(false),
    // Wrong codes sent by this session while it owed its second factor: at the limit the session ends
    // and the owner is told (docs/decisions/0016-two-factor.md).
    twoFactorFailures: integer('two_factor_failures').notNull().default(0),
    // The key proposed by twoFactor.setup (encrypted with the data key), until a first code confirms it:
    // the server chooses the key, never the client.
    twoFactorPendingKey: text('two_factor_pending_key'),
    createdAt: createdAt(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

// A user's TOTP key (20 random bytes, base64), written once the first code confirmed it; never sent
// back to a client after enrolment. Its presence means the user has enrolled in two-factor log-in.
export const twoFactorKeys = table('two_factor_keys', {
  id: id(),
  userId: ref('user_id')
    .notNull()
    .unique()
    .references(() => utilisateurs.id, { onDelete: 'cascade' }),
  key: text('key').notNull(),
  // The last 30-second step whose code was accepted: a code works once (RFC 6238 §5.2).
  lastUsedStep: integer('last_used_step'),
  createdAt: createdAt(),
});

// Single-use recovery codes, shown once at enrolment; only their SHA-256 is kept.
export const recoveryCodes = table(
  'recovery_codes',
  {
    id: id(),
    userId: ref('user_id')
      .notNull()
      .references(() => utilisateurs.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull().unique(),
    usedAt: timestamp('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

// Single-use links to choose a password (account set-up and reset). Only the token's SHA-256 is kept.
export const passwordTokens = table(
  'password_tokens',
  {
    id: id(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: ref('user_id')
      .notNull()
      .references(() => utilisateurs.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<'setup' | 'reset'>().notNull(),
    expiresAt: timestamp('expires_at').notNull(),
    usedAt: timestamp('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('password_tokens_user_idx').on(t.userId)],
);

// Outgoing e-mail, written in the transaction of the action that causes it and delivered by a worker.
export const mailOutbox = table(
  'mail_outbox',
  {
    id: id(),
    kind: text('kind').notNull(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    status: text('status').$type<'pending' | 'sent' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at').notNull(),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at'),
    createdAt: createdAt(),
    // The delivery worker that holds the message (mail_workers.id) while it sends it, and since when.
    claimedBy: text('claimed_by'),
    claimedAt: timestamp('claimed_at'),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt),
    index('mail_outbox_sent_idx').on(t.status, t.sentAt),
  ],
);

/**
 * The delivery workers alive (docs/decisions/0004-mail-outbox.md): each beats every few seconds. A message
 * claimed by a worker that stopped beating (its process died) is taken again at once and shown to
 * administrators, instead of waiting for the end of its 10-minute lease.
 */
export const mailWorkers = table('mail_workers', {
  id: text('id').primaryKey(),
  beatAt: timestamp('beat_at').notNull(),
  startedAt: timestamp('started_at').notNull(),
});

// Failed log-in counters, keyed by 'email:<address>' or 'ip:<address>'.
export const loginThrottle = table('login_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  windowStartedAt: timestamp('window_started_at').notNull(),
  blockedUntil: timestamp('blocked_until'),
});

// ---------------------------------------------------------------- partners and projects
export const partenaires = table(
  'partenaires',
  {
    id: id(),
    code: text('code').notNull().unique(),
    designation: text('designation').notNull(),
    email: text('email'),
    phoneNumber: text('phone_number'),
    initial: text('initial').notNull(),
    color: text('color').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('partenaires_designation_idx').on(t.designation)],
);

export const projects = table(
  'projects',
  {
    id: id(),
    code: text('code').notNull().unique(),
    sigle: text('sigle').notNull(),
    designation: text('designation').notNull(),
    description: text('description'),
    ownerId: ref('owner_id')
      .notNull()
      .references(() => partenaires.id),
    createdAt: createdAt(),
  },
  (t) => [index('projects_owner_idx').on(t.ownerId)],
);

// ---------------------------------------------------------------- reference lists
export const subjects = table('subjects', {
  id: id(),
  code: text('code').notNull().unique(),
  designation: text('designation').notNull(),
  position: integer('position').notNull().default(0),
});

export const canals = table('canals', {
  id: id(),
  code: text('code').notNull().unique(),
  designation: text('designation').notNull(),
  icon: text('icon').notNull(),
  position: integer('position').notNull().default(0),
});

export const niveaux = table('niveaux', {
  id: id(),
  code: text('code').notNull().unique(),
  designation: text('designation').notNull(),
  color: text('color').notNull(),
  // Higher is more serious; the dashboard's 'urgent' alert uses the highest rank.
  rank: integer('rank').notNull(),
});

export const statuts = table('statuts', {
  id: id(),
  code: text('code').notNull().unique(),
  designation: text('designation').notNull(),
  kind: text('kind').$type<StatutKind>().notNull(),
  position: integer('position').notNull().default(0),
});

export const resultats = table('resultats', {
  id: id(),
  code: text('code').notNull().unique(),
  designation: text('designation').notNull(),
  position: integer('position').notNull().default(0),
});

// ---------------------------------------------------------------- geography (P-codes)
export const regions = table('regions', {
  id: id(),
  code: text('code').notNull().unique(),
  designation: text('designation').notNull(),
  latitude: float('latitude'),
  longitude: float('longitude'),
});

export const districts = table(
  'districts',
  {
    id: id(),
    code: text('code').notNull().unique(),
    designation: text('designation').notNull(),
    regionId: ref('region_id')
      .notNull()
      .references(() => regions.id),
    latitude: float('latitude'),
    longitude: float('longitude'),
  },
  (t) => [index('districts_region_idx').on(t.regionId)],
);

export const communes = table(
  'communes',
  {
    id: id(),
    code: text('code').notNull().unique(),
    designation: text('designation').notNull(),
    districtId: ref('district_id')
      .notNull()
      .references(() => districts.id),
    latitude: float('latitude'),
    longitude: float('longitude'),
  },
  (t) => [index('communes_district_idx').on(t.districtId)],
);

// ---------------------------------------------------------------- reports
export const signalements = table(
  'signalements',
  {
    id: id(),
    code: text('code').notNull().unique(),
    signalementAt: timestamp('signalement_at').notNull(),
    createdAt: createdAt(),
    closeAt: timestamp('close_at'),
    lastActionAt: timestamp('last_action_at'),
    createdById: ref('created_by_id')
      .notNull()
      .references(() => utilisateurs.id),
    partenaireId: ref('partenaire_id')
      .notNull()
      .references(() => partenaires.id),
    canalPrincipalId: ref('canal_principal_id').references(() => canals.id),
    autreCanalPrincipal: text('autre_canal_principal'),
    autreObject: text('autre_object'),
    regionId: ref('region_id').references(() => regions.id),
    districtId: ref('district_id').references(() => districts.id),
    communeId: ref('commune_id').references(() => communes.id),
    fokontany: text('fokontany'),
    isTreated: bool('is_treated').notNull().default(false),
    isInternalResponsability: bool('is_internal_responsability').notNull().default(false),
    isConfict: bool('is_confict').notNull().default(false),
    isRecurrent: bool('is_recurrent').notNull().default(false),
    isAnonyme: bool('is_anonyme').notNull().default(false),
    niveauId: ref('niveau_id').references(() => niveaux.id),
    statutId: ref('statut_id').references(() => statuts.id),
    resultatId: ref('resultat_id').references(() => resultats.id),
    description: text('description'),
    actionProvisoires: stringList('action_provisoires')
      .notNull()
      .default(sql`'[]'::jsonb`),
    preuves: stringList('preuves')
      .notNull()
      .default(sql`'[]'::jsonb`),
    // Lower-cased, accent-free text of everything the list search looks at, kept by the service.
    searchText: text('search_text').notNull().default(''),
    // The handling deadline (docs/decisions/0032-deadlines.md): the epoch day it falls on while the report
    // is open and its niveau has one; NO_DUE_DAY otherwise, so that one plain index serves the « En retard »
    // filter and the sort by due day alike on both engines. Written by refreshDueDays only.
    dueDay: integer('due_day').notNull().default(NO_DUE_DAY),
    // The edit precondition (docs/decisions/0047-edit-conflicts.md): one more at every write of the report's
    // own fields, compared and moved in the same UPDATE.
    version: integer('version').notNull().default(1),
  },
  (t) => [
    // The list's order; due_day rides along so « En retard » in that order is read from the index alone
    // (the newest reports are not yet due: 14,000 of them were fetched from the table at 1,000,000).
    index('signalements_signalement_at_idx').on(t.signalementAt, t.id, t.dueDay),
    // Each reference's reports in the list's order, the id last: on PostgreSQL a filter's page and bounded
    // count are then read from the index alone (SQLite's indexes carry the rowid already; PostgreSQL's read
    // the table for it: 9,000 pages for a partner and a subject at 1,000,000, docs/decisions/0060).
    index('signalements_partenaire_idx').on(t.partenaireId, t.signalementAt, t.id),
    index('signalements_created_by_idx').on(t.createdById, t.signalementAt, t.id),
    index('signalements_region_idx').on(t.regionId, t.signalementAt, t.id),
    index('signalements_district_idx').on(t.districtId, t.signalementAt, t.id),
    index('signalements_commune_idx').on(t.communeId, t.signalementAt, t.id),
    index('signalements_canal_idx').on(t.canalPrincipalId, t.signalementAt, t.id),
    index('signalements_statut_idx').on(t.statutId, t.signalementAt, t.id),
    index('signalements_niveau_idx').on(t.niveauId, t.signalementAt, t.id),
    index('signalements_resultat_idx').on(t.resultatId, t.signalementAt, t.id),
    index('signalements_due_day_idx').on(t.dueDay, t.id),
  ],
);

export const signalementSubjects = table(
  'signalement_subjects',
  {
    signalementId: ref('signalement_id')
      .notNull()
      .references(() => signalements.id, { onDelete: 'cascade' }),
    subjectId: ref('subject_id')
      .notNull()
      .references(() => subjects.id),
  },
  (t) => [
    primaryKey({ columns: [t.signalementId, t.subjectId] }),
    index('signalement_subjects_subject_idx').on(t.subjectId, t.signalementId),
  ],
);

export const signalementProjects = table(
  'signalement_projects',
  {
    signalementId: ref('signalement_id')
      .notNull()
      .references(() => signalements.id, { onDelete: 'cascade' }),
    projectId: ref('project_id')
      .notNull()
      .references(() => projects.id),
  },
  (t) => [
    primaryKey({ columns: [t.signalementId, t.projectId] }),
    index('signalement_projects_project_idx').on(t.projectId, t.signalementId),
  ],
);

/**
 * Who works on a report (docs/decisions/0028): enabled staff of any role, any number of them, each with the
 * editing rights of the report's creator. The (user, report) index answers « Mes dossiers » and the
 * « Assigné à » filter; the primary key answers « Non assigné » (NOT EXISTS probed per report).
 */
export const signalementAssignees = table(
  'signalement_assignees',
  {
    signalementId: ref('signalement_id')
      .notNull()
      .references(() => signalements.id, { onDelete: 'cascade' }),
    userId: ref('user_id')
      .notNull()
      .references(() => utilisateurs.id),
    assignedById: ref('assigned_by_id').references(() => utilisateurs.id),
    assignedAt: timestamp('assigned_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.signalementId, t.userId] }),
    index('signalement_assignees_user_idx').on(t.userId, t.signalementId),
  ],
);

/**
 * Reports per business day and per value of one dimension ('total' with refId 0, 'statut', 'region',
 * 'district', 'commune', 'canal', 'niveau', 'resultat', 'subject'): the dashboard's counts. Kept
 * exact by triggers on signalements and signalement_subjects (drizzle/migrations/{sqlite,pg}/0004_day_counts.sql,
 * docs/decisions/0014-dashboard-day-counts.md); nothing in the application writes it.
 */
export const signalementDayCounts = table(
  'signalement_day_counts',
  {
    dimension: text('dimension').$type<DayCountDimension>().notNull(),
    refId: integer('ref_id').notNull(),
    /** Days since 1970-01-01 of the business day (business_calendar_offsets). */
    day: integer('day').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.dimension, t.refId, t.day] })],
);

/**
 * The UTC offsets of the business time zone (APP_TIMEZONE, docs/decisions/0018-business-calendar.md):
 * each row gives the offset in force from `startsAt` on, the first row starting in the far past. The
 * day-count triggers read it to put a report on its business day; the server rewrites it, and rebuilds
 * signalement_day_counts, when it starts with another zone.
 */
export const businessCalendarOffsets = table(
  'business_calendar_offsets',
  {
    startsAt: timestamp('starts_at').notNull(),
    offsetMs: integer('offset_ms').notNull(),
    zone: text('zone').notNull(),
  },
  (t) => [primaryKey({ columns: [t.startsAt] })],
);

export const presumeAuteurs = table(
  'presume_auteurs',
  {
    id: id(),
    code: text('code').notNull().unique(),
    signalementId: ref('signalement_id')
      .notNull()
      .references(() => signalements.id, { onDelete: 'cascade' }),
    nomPrenom: text('nom_prenom').notNull(),
    fonction: text('fonction'),
    description: text('description'),
    createdAt: createdAt(),
  },
  (t) => [index('presume_auteurs_signalement_idx').on(t.signalementId)],
);

export const sources = table(
  'sources',
  {
    id: id(),
    code: text('code').notNull().unique(),
    signalementId: ref('signalement_id')
      .notNull()
      .references(() => signalements.id, { onDelete: 'cascade' }),
    nomPrenom: text('nom_prenom'),
    contact: text('contact'),
    description: text('description'),
    autreCanal: text('autre_canal'),
    /** Keyed blind index (HMAC-SHA-256 of the normalised name) for exact search on encrypted names. */
    nomIndex: text('nom_index'),
    createdAt: createdAt(),
  },
  (t) => [
    index('sources_signalement_idx').on(t.signalementId),
    index('sources_nom_index_idx').on(t.nomIndex),
  ],
);

export const sourceCanaux = table(
  'source_canaux',
  {
    sourceId: ref('source_id')
      .notNull()
      .references(() => sources.id, { onDelete: 'cascade' }),
    canalId: ref('canal_id')
      .notNull()
      .references(() => canals.id),
  },
  (t) => [primaryKey({ columns: [t.sourceId, t.canalId] }), index('source_canaux_canal_idx').on(t.canalId)],
);

export const victimes = table(
  'victimes',
  {
    id: id(),
    code: text('code').notNull().unique(),
    signalementId: ref('signalement_id')
      .notNull()
      .references(() => signalements.id, { onDelete: 'cascade' }),
    nomPrenom: text('nom_prenom').notNull(),
    fonction: text('fonction'),
    contact: text('contact'),
    createdAt: createdAt(),
  },
  (t) => [index('victimes_signalement_idx').on(t.signalementId)],
);

/**
 * The « Notes internes » of a report (docs/decisions/0029-internal-notes.md): plain text by a member of
 * staff, editable by its author for a few minutes (NOTE_EDIT_MINUTES), then frozen. `updatedAt` is null
 * until the first edit.
 */
export const reportNotes = table(
  'report_notes',
  {
    id: id(),
    code: text('code').notNull().unique(),
    signalementId: ref('signalement_id')
      .notNull()
      .references(() => signalements.id, { onDelete: 'cascade' }),
    authorId: ref('author_id')
      .notNull()
      .references(() => utilisateurs.id),
    texte: text('texte').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at'),
  },
  (t) => [index('report_notes_signalement_idx').on(t.signalementId, t.createdAt)],
);

// ---------------------------------------------------------------- evidence files (« Pièces jointes »)
/**
 * A file attached to a report (docs/decisions/0033-evidence-files.md). Its content lives in evidence_chunks,
 * encrypted under a key of its own (`cle`, wrapped by the data key: a rotation rewraps it). A row without
 * `sha256` is an upload still streaming: never listed, removed when it fails or is abandoned.
 */
export const evidenceFiles = table(
  'evidence_files',
  {
    id: id(),
    code: text('code').notNull().unique(),
    signalementId: ref('signalement_id')
      .notNull()
      .references(() => signalements.id, { onDelete: 'cascade' }),
    uploadedById: ref('uploaded_by_id')
      .notNull()
      .references(() => utilisateurs.id),
    nom: text('nom').notNull(),
    // Detected from the content (file-type), never the name or the browser's claim.
    type: text('type').notNull(),
    taille: integer('taille').notNull().default(0),
    blocs: integer('blocs').notNull().default(0),
    sha256: text('sha256'),
    cle: text('cle').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('evidence_files_signalement_idx').on(t.signalementId, t.createdAt)],
);

/** The encrypted content of an evidence file, in blocks of EVIDENCE_CHUNK_BYTES (the last one shorter). */
export const evidenceChunks = table(
  'evidence_chunks',
  {
    evidenceId: ref('evidence_id')
      .notNull()
      .references(() => evidenceFiles.id, { onDelete: 'cascade' }),
    idx: integer('idx').notNull(),
    data: bytes('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.evidenceId, t.idx] })],
);

// One row per change to a report or one of its children, written in the change's transaction.
export const signalementHistorique = table(
  'signalement_historique',
  {
    id: id(),
    signalementId: ref('signalement_id')
      .notNull()
      .references(() => signalements.id, { onDelete: 'cascade' }),
    userId: ref('user_id').references(() => utilisateurs.id),
    at: timestamp('at').notNull(),
    action: text('action').notNull(),
    changes: json<Record<string, { from: unknown; to: unknown }>>('changes').notNull(),
  },
  (t) => [index('signalement_historique_signalement_idx').on(t.signalementId, t.at)],
);

// ---------------------------------------------------------------- access log and alerts
/**
 * Append-only trace of who read or exported what (decision 0015, "Access log"): reads of a report's people
 * and history, exports, changes of rights or role, log-ins and failed log-ins. Triggers refuse UPDATE, and
 * DELETE but for the retention purge's (access_log_purge; migrations sqlite/0015 and pg/0013); nothing else
 * removes an entry.
 */
export const accessLog = table(
  'access_log',
  {
    id: id(),
    at: timestamp('at').notNull(),
    kind: text('kind').$type<AccessLogKind>().notNull(),
    /** The acting user; null for a failed log-in on an unknown e-mail. */
    userId: ref('user_id').references(() => utilisateurs.id),
    /** The e-mail of the actor at the time (or the e-mail typed at a failed log-in). */
    userEmail: text('user_email'),
    address: text('address'),
    /** The report concerned, when there is one. */
    signalementCode: text('signalement_code'),
    details: json<Record<string, unknown>>('details').notNull(),
  },
  (t) => [
    index('access_log_at_idx').on(t.at),
    index('access_log_user_idx').on(t.userId, t.at),
    index('access_log_signalement_idx').on(t.signalementCode, t.at),
    index('access_log_kind_idx').on(t.kind, t.at),
  ],
);

/**
 * The purge's marker (docs/decisions/0015, "Retention"): one row, whose `cutoff` is set only inside the
 * retention purge's own transaction (journal/retention.ts) and cleared before it commits. The triggers on
 * access_log allow a DELETE only of rows older than this cutoff, and refuse a cutoff younger than 30 days.
 */
export const accessLogPurge = table('access_log_purge', {
  id: integer('id').primaryKey().default(1),
  cutoff: timestamp('cutoff'),
});

/** Unusual reading raised from the access log; shown to administrators until one marks it seen. */
export const accessAlerts = table(
  'access_alerts',
  {
    id: id(),
    kind: text('kind').$type<AccessAlertKind>().notNull(),
    userId: ref('user_id')
      .notNull()
      .references(() => utilisateurs.id),
    details: json<Record<string, unknown>>('details').notNull(),
    createdAt: createdAt(),
    seenAt: timestamp('seen_at'),
    seenBy: ref('seen_by').references(() => utilisateurs.id),
  },
  (t) => [
    index('access_alerts_user_idx').on(t.userId, t.kind, t.createdAt),
    index('access_alerts_seen_idx').on(t.seenAt, t.createdAt),
  ],
);

/**
 * One row proving which data key encrypts the sources: a known text encrypted with it. A start with
 * another key fails to decrypt it and stops (server/crypto/data-key.ts).
 */
export const dataKeyCheck = table('data_key_check', {
  id: id(),
  verifier: text('verifier').notNull(),
  createdAt: createdAt(),
});

/**
 * Idempotent creates (decision 0020): the first answer to a POST carrying an Idempotency-Key, per user, kept
 * for a day. The answer may name people: it is stored encrypted with the data key (docs/decisions/0017).
 * It is written in the same transaction as what the POST created, so a retry after a crash between the
 * commit and the reply finds it.
 */
export const idempotencyKeys = table(
  'idempotency_keys',
  {
    userId: ref('user_id')
      .notNull()
      .references(() => utilisateurs.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    scope: text('scope').notNull(),
    response: text('response').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/**
 * Counting windows of the public summary's limit (server/http/public-limit.ts): one row per client address
 * ('ip:…') and one for all addresses ('global'). In the database so that every server process on it
 * counts the same requests (decision 0015, "The public summary").
 */
export const rateWindows = table(
  'rate_windows',
  {
    key: text('key').primaryKey(),
    startedAt: timestamp('started_at').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [index('rate_windows_started_idx').on(t.startedAt)],
);

// ---------------------------------------------------------------- handling deadlines (docs/decisions/0032)

/** The handling deadline of each niveau, in business days; null: reports of that niveau have none. */
export const delaisTraitement = table(
  'delais_traitement',
  {
    niveauId: ref('niveau_id')
      .notNull()
      .references(() => niveaux.id),
    jours: integer('jours'),
    updatedAt: timestamp('updated_at'),
    updatedById: ref('updated_by_id').references(() => utilisateurs.id),
  },
  // A key of its own rather than an INTEGER PRIMARY KEY column, which SQLite makes the rowid.
  (t) => [primaryKey({ columns: [t.niveauId] })],
);

/**
 * Every calendar day from 1900 to 2100 (epoch-day number) with its business-day ordinal: how many business
 * days of Madagascar's calendar there are up to it (shared/calendar.ts businessDayOrdinals). Filled at start
 * (server/db/due-days.ts); the due day of a deadline of n days is the first day of ordinal k + n.
 */
export const businessDays = table(
  'business_days',
  {
    day: integer('day').notNull(),
    ordinal: integer('ordinal').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day] }), index('business_days_ordinal_idx').on(t.ordinal, t.day)],
);

// ---------------------------------------------------------------- daily reminders (docs/decisions/0036)

/**
 * The business days whose reminder e-mails were queued: the server whose insert of the day wins queues every
 * digest in the same transaction; the others insert nothing and send nothing.
 */
export const dailyDigests = table(
  'daily_digests',
  {
    // Epoch-day number of the business day (shared/calendar.ts dayNumber).
    day: integer('day').notNull(),
    sentAt: timestamp('sent_at').notNull(),
    mails: integer('mails').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day] })],
);

// ---------------------------------------------------------------- webhooks (docs/decisions/0039)

/**
 * A partner's endpoint that hears when one of its reports changes statut, résultat or niveau. The secret
 * (`whsec_` + base64) signs every delivery; it is shown once at registration and never logged.
 */
export const webhookEndpoints = table(
  'webhook_endpoints',
  {
    id: id(),
    partenaireId: ref('partenaire_id')
      .notNull()
      .references(() => partenaires.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    // Encrypted with the data key, bound to this column and row (server/crypto/webhook-secrets.ts).
    secret: text('secret').notNull(),
    // After « Renouveler le secret »: the former secret (encrypted likewise), still signing until its expiry.
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at'),
    isEnabled: bool('is_enabled').notNull().default(true),
    // Who registered it: an administrator, or the partner with its API token (docs/decisions/0051), whose
    // endpoints must point to public addresses.
    origin: text('origin').$type<'administrateur' | 'partenaire'>().notNull().default('administrateur'),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_endpoints_partenaire_idx').on(t.partenaireId)],
);

/**
 * The webhook outbox: one row per event and endpoint, inserted in the transaction of the change. Claimed
 * like mail_outbox (lease, claimed_by a live worker of mail_workers); 'dead' is the dead letter.
 */
export const webhookDeliveries = table(
  'webhook_deliveries',
  {
    id: id(),
    // The Standard Webhooks message id (webhook-id): the same on every attempt, so a receiver deduplicates.
    eventId: text('event_id').notNull().unique(),
    endpointId: ref('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    signalementId: ref('signalement_id')
      .notNull()
      .references(() => signalements.id, { onDelete: 'cascade' }),
    eventType: text('event_type').notNull(),
    payload: text('payload').notNull(),
    status: text('status').$type<'pending' | 'delivered' | 'dead'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at').notNull(),
    lastError: text('last_error'),
    lastStatus: integer('last_status'),
    lastResponse: text('last_response'),
    deliveredAt: timestamp('delivered_at'),
    claimedBy: text('claimed_by'),
    claimedAt: timestamp('claimed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_order_idx').on(t.endpointId, t.signalementId, t.id),
  ],
);

// ---------------------------------------------------------------- partner API tokens (docs/decisions/0038)

/**
 * A partner system's API token (docs/decisions/0038-partner-api-tokens.md): `sig_<public_id>_<secret>`, looked
 * up by its public id; only the secret's SHA-256 is kept. Each token acts through an account of its own
 * (`user_id`: disabled, without a password, never listed), so that reports, history, idempotency keys and the
 * access log name the token as the actor.
 */
export const jetonsApi = table(
  'jetons_api',
  {
    id: id(),
    publicId: text('public_id').notNull().unique(),
    secretHash: text('secret_hash').notNull(),
    nom: text('nom').notNull(),
    partenaireId: ref('partenaire_id')
      .notNull()
      .references(() => partenaires.id, { onDelete: 'cascade' }),
    userId: ref('user_id')
      .notNull()
      .unique()
      .references(() => utilisateurs.id),
    scopes: stringList('scopes').notNull(),
    expiresAt: timestamp('expires_at').notNull(),
    createdById: ref('created_by_id')
      .notNull()
      .references(() => utilisateurs.id),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at'),
    lastUsedAt: timestamp('last_used_at'),
  },
  (t) => [index('jetons_api_partenaire_idx').on(t.partenaireId, t.createdAt)],
);

// ---------------------------------------------------------------- saved filters (docs/decisions/0046)

/**
 * « Mes filtres »: a named query string of the report list, kept by its owner for themselves or shared with
 * every staff member (`partage`). The query string is checked against the list's filters and stored
 * normalised (server/domains/filtres/requete.ts); opening one is opening the list at that address, so it
 * never grants more than the reader's own rights. A deleted account takes its filters with it.
 */
export const filtresEnregistres = table(
  'filtres_enregistres',
  {
    id: id(),
    nom: text('nom').notNull(),
    requete: text('requete').notNull(),
    ownerId: ref('owner_id')
      .notNull()
      .references(() => utilisateurs.id, { onDelete: 'cascade' }),
    partage: bool('partage').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('filtres_enregistres_owner_nom_idx').on(t.ownerId, t.nom),
    index('filtres_enregistres_partage_idx').on(t.partage),
  ],
);
