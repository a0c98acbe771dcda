// The write path of the access log (issue #11), called by the services of the other domains so both
// doors (tRPC and REST) are logged by the same rule. Entries are only ever inserted: triggers refuse
// UPDATE and DELETE (drizzle migrations sqlite/0008, pg/0006). A read logs before it returns its data,
// in the same transaction as the alert it may raise: when the log cannot be written, the read fails.
// Details never hold a password, a code, a token or a person's identity: counts, codes and labels.
import { and, count, countDistinct, eq, gte, inArray } from 'drizzle-orm';
import { ROLE_ADMIN, type AccessAlertKind, type AccessLogKind } from '../../../shared/constants';
import type { Database, Orm } from '../../db/client';
import { LOCK_SPACE, lockFor } from '../../db/locks';
import type { SessionUser } from '../auth/session';
import { enqueueMail } from '../mail/outbox';
import { accessAlertMail, journalLink } from '../mail/templates';
import { describeAlert, type LoginFailure, type LoginStep } from './describe';
import { journalSettings } from './settings';

/** The longest e-mail kept from a failed log-in form (RFC 5321's limit); the rest is cut. */
const MAX_EMAIL = 254;

export interface AccessEntry {
  kind: AccessLogKind;
  userId: number | null;
  email: string | null;
  address: string | null;
  signalement?: string | null;
  details: Record<string, unknown>;
}

type Actor = Pick<SessionUser, 'id' | 'email' | 'address'>;

const byActor = (actor: Actor) => ({ userId: actor.id, email: actor.email, address: actor.address ?? null });

/** Appends one entry, joining the caller's transaction when there is one. */
export async function recordAccess(db: Database, entry: AccessEntry, tx?: Orm): Promise<void> {
  const values = {
    at: new Date(),
    kind: entry.kind,
    userId: entry.userId,
    userEmail: entry.email === null ? null : entry.email.slice(0, MAX_EMAIL),
    address: entry.address,
    signalementCode: entry.signalement ?? null,
    details: entry.details,
  };
  if (tx) await tx.insert(db.t.accessLog).values(values);
  else await db.transaction((t) => t.insert(db.t.accessLog).values(values));
}

/** What a people read returned: `protegees` when the caller only learnt how many protected sources there are. */
export type PeopleRead =
  | { personnes: 'auteurs' | 'victimes' | 'sources'; nombre: number; protegees?: false }
  | { personnes: 'sources'; protegees: true; masquees: number };

/** A read of a report's authors, sources or victims; may raise a `lecture_massive` alert. */
export async function recordPeopleRead(db: Database, actor: Actor, signalement: string, read: PeopleRead): Promise<void> {
  await recordRead(db, actor, 'lecture_personnes', signalement, { ...read });
}

/** A read of a report's history that showed entries about its people; may raise a `lecture_massive` alert. */
export async function recordHistoryRead(
  db: Database,
  actor: Actor,
  signalement: string,
  details: { entrees: number; personnes: number; masquees: number },
): Promise<void> {
  await recordRead(db, actor, 'lecture_historique', signalement, details);
}

async function recordRead(
  db: Database,
  actor: Actor,
  kind: 'lecture_personnes' | 'lecture_historique',
  signalement: string,
  details: Record<string, unknown>,
) {
  await db.transaction(async (tx) => {
    await recordAccess(db, { kind, ...byActor(actor), signalement, details }, tx);
    await checkMassiveReading(db, tx, actor);
  });
}

export interface ExportRecord {
  format: 'xlsx' | 'json';
  /** The filters of the export, as parsed (no secret can be in them). */
  filtres: Record<string, unknown>;
  lignes: number;
}

/** An export of the reports list: one entry; may raise an `export_massif` alert. */
export async function recordExport(db: Database, actor: Actor, record: ExportRecord): Promise<void> {
  const filtres = Object.fromEntries(Object.entries(record.filtres).filter(([, v]) => v !== undefined));
  await db.transaction(async (tx) => {
    await recordAccess(db, { kind: 'export', ...byActor(actor), details: { ...record, filtres } }, tx);
    await checkMassiveExport(db, tx, actor, record);
  });
}

/** A change of rights or role made by an administrator (details: what changed, before → after). */
export async function recordRightsChange(db: Database, actor: Actor, details: Record<string, unknown>, tx?: Orm) {
  await recordAccess(db, { kind: 'droits', ...byActor(actor), details }, tx);
}

/** A successful log-in step (password, then second factor when owed). */
export async function recordLogin(db: Database, user: Pick<SessionUser, 'id' | 'email'>, address: string, etape: LoginStep) {
  await recordAccess(db, { kind: 'connexion', userId: user.id, email: user.email, address, details: { etape } });
}

/**
 * A refused log-in step: the e-mail typed (or the account's), never the password or the code; the
 * user when the e-mail matches an account.
 */
export async function recordLoginFailure(
  db: Database,
  failure: { userId: number | null; email: string; address: string; motif: LoginFailure },
) {
  const { motif, ...who } = failure;
  await recordAccess(db, { kind: 'echec_connexion', ...who, email: who.email.trim(), details: { motif } });
}

// ---------------------------------------------------------------- alerts
/** Whether the user already has an alert of this kind raised within the window (one alert per burst). */
async function recentAlert(db: Database, tx: Orm, userId: number, kind: AccessAlertKind, since: Date) {
  const a = db.t.accessAlerts;
  const [row] = await tx
    .select({ id: a.id })
    .from(a)
    .where(and(eq(a.userId, userId), eq(a.kind, kind), gte(a.createdAt, since)))
    .limit(1);
  return row !== undefined;
}

async function checkMassiveReading(db: Database, tx: Orm, actor: Actor) {
  const settings = journalSettings(db);
  const since = new Date(Date.now() - settings.windowMinutes * 60_000);
  const l = db.t.accessLog;
  // Two reads of the same user at once must not both raise the alert (SQLite serialises already).
  await lockFor(db, tx, LOCK_SPACE.accessAlerts, actor.id);
  const [row] = await tx
    .select({ n: countDistinct(l.signalementCode) })
    .from(l)
    .where(and(eq(l.userId, actor.id), inArray(l.kind, ['lecture_personnes', 'lecture_historique']), gte(l.at, since)));
  const reports = Number(row?.n ?? 0);
  if (reports < settings.reads || (await recentAlert(db, tx, actor.id, 'lecture_massive', since))) return;
  await raiseAlert(db, tx, actor.id, 'lecture_massive', {
    signalements: reports,
    fenetreMinutes: settings.windowMinutes,
    seuil: settings.reads,
  });
}

async function checkMassiveExport(db: Database, tx: Orm, actor: Actor, record: ExportRecord) {
  const settings = journalSettings(db);
  if (record.lignes < settings.exportMinRows) return;
  const [row] = await tx.select({ n: count() }).from(db.t.signalements);
  const total = Number(row?.n ?? 0);
  if (total === 0 || record.lignes < settings.exportShare * total) return;
  await lockFor(db, tx, LOCK_SPACE.accessAlerts, actor.id);
  const since = new Date(Date.now() - settings.windowMinutes * 60_000);
  if (await recentAlert(db, tx, actor.id, 'export_massif', since)) return;
  await raiseAlert(db, tx, actor.id, 'export_massif', {
    format: record.format,
    lignes: record.lignes,
    total,
    part: Math.round((record.lignes / total) * 1000) / 1000,
    seuilLignes: settings.exportMinRows,
    seuilPart: settings.exportShare,
  });
}

/** Inserts the alert and queues one e-mail per enabled administrator, in the caller's transaction. */
async function raiseAlert(db: Database, tx: Orm, userId: number, kind: AccessAlertKind, details: Record<string, unknown>) {
  const { accessAlerts, utilisateurs: u, utilisateurRoles: r } = db.t;
  await tx.insert(accessAlerts).values({ kind, userId, details, createdAt: new Date() });
  const [user] = await tx
    .select({ code: u.code, nomPrenom: u.nomPrenom, email: u.email })
    .from(u)
    .where(eq(u.id, userId))
    .limit(1);
  if (!user) return;
  const admins = await tx
    .select({ email: u.email, nomPrenom: u.nomPrenom })
    .from(u)
    .innerJoin(r, eq(r.id, u.roleId))
    .where(and(eq(r.code, ROLE_ADMIN), eq(u.isEnabled, true)));
  const { publicUrl } = journalSettings(db);
  const message = describeAlert(kind, details);
  for (const admin of admins) {
    await enqueueMail(
      db,
      accessAlertMail({ to: admin.email, nomPrenom: admin.nomPrenom, user, message, link: journalLink(publicUrl, user.code) }),
    );
  }
}
