// The write path of the access log (decision 0015, "What is logged"), called by the services of the other
// domains so both doors (tRPC and REST) are logged by the same rule. Entries are only ever inserted
// (append.ts): triggers refuse UPDATE, and DELETE but for the retention purge's (retention.ts). A read logs
// before it returns its data, in the same transaction as the alert it may raise: when the log cannot be
// written, the read fails. Details never hold a password, a code, a token, a person's identity or free text
// someone typed (decision 0015, "No free text"): counts, codes and labels; a search is logged as its kind and
// length with a keyed hash (logged-text.ts), a failed log-in names the account, or the keyed hash of the
// e-mail typed.
import { eq } from 'drizzle-orm';
import type { Services, Stamping } from '#server/context';
import type { DataCipher } from '#server/crypto/cipher';
import type { Database, Orm } from '#server/db/client';
import type { SessionUser } from '../auth/session';
import { checkMassiveExport, checkMassiveReading } from './alerts';
import { recordAccess } from './append';
import type { LoginFailure, LoginStep } from './describe';
import { describeSearch, textDigest } from './logged-text';
import { countRefusal } from './refusals';

export { recordAccess, type AccessEntry } from './append';

export type Actor = Pick<SessionUser, 'id' | 'email' | 'address'>;

/** The acting account's columns of an access-log entry. */
export const byActor = (actor: Actor) => ({
  userId: actor.id,
  email: actor.email,
  address: actor.address ?? null,
});

/** What a people read returned: `protegees` when the caller only learnt how many protected sources there are. */
export type PeopleRead =
  | { personnes: 'auteurs' | 'victimes' | 'sources'; nombre: number; protegees?: false }
  | { personnes: 'sources'; protegees: true; masquees: number };

/** A read of a report's authors, sources or victims; may raise a `lecture_massive` alert. */
export async function recordPeopleRead(
  ctx: Services,
  actor: Actor,
  signalement: string,
  read: PeopleRead,
): Promise<void> {
  await recordRead(ctx, actor, 'lecture_personnes', signalement, { ...read });
}

/** A read of a report's history that showed entries about its people; may raise a `lecture_massive` alert. */
export async function recordHistoryRead(
  ctx: Services,
  actor: Actor,
  signalement: string,
  details: { entrees: number; personnes: number; masquees: number },
): Promise<void> {
  await recordRead(ctx, actor, 'lecture_historique', signalement, details);
}

/** What a read of a report's internal notes returned (docs/decisions/0029-internal-notes.md). */
export type NotesRead = { nombre: number; protegees?: false } | { protegees: true; masquees: number };

/** A read of a report's internal notes; may raise a `lecture_massive` alert like a read of its people. */
export async function recordNotesRead(
  ctx: Services,
  actor: Actor,
  signalement: string,
  read: NotesRead,
): Promise<void> {
  await recordRead(ctx, actor, 'lecture_notes', signalement, { ...read });
}

/** What was done to one internal note: its code, never its text (decision 0015, « No free text »). */
export type NoteChange = { action: 'ajout' | 'modification' | 'suppression'; note: string };

/** A note added, edited or deleted (docs/decisions/0029-internal-notes.md), in the transaction of the change. */
export async function recordNoteChange(
  ctx: Stamping,
  actor: Actor,
  signalement: string,
  change: NoteChange,
  tx: Orm,
): Promise<void> {
  await recordAccess(
    ctx.db,
    { kind: 'ecriture_notes', ...byActor(actor), signalement, details: { ...change } },
    tx,
    ctx.clock.now(),
  );
}

/**
 * A read of a report's evidence files: their list, or one file downloaded; may raise a `lecture_massive` alert
 * like a read of its people (docs/decisions/0033-evidence-files.md).
 */
export async function recordEvidenceRead(
  ctx: Services,
  actor: Actor,
  signalement: string,
  read:
    { nombre: number } | { protegees: true; masquees: number } | { telechargement: string; taille: number },
): Promise<void> {
  await recordRead(ctx, actor, 'lecture_pieces_jointes', signalement, { ...read });
}

async function recordRead(
  ctx: Services,
  actor: Actor,
  kind:
    'lecture_personnes' | 'lecture_historique' | 'lecture_notes' | 'lecture_pieces_jointes' | 'impression',
  signalement: string,
  details: Record<string, unknown>,
) {
  const { db, journal } = ctx;
  const at = ctx.clock.now();
  await db.transaction(async (tx) => {
    await recordAccess(db, { kind, ...byActor(actor), signalement, details }, tx, at);
    await checkMassiveReading(journal.settings, ctx.calendar, db, tx, actor.id, at);
  });
}

export interface ExportRecord {
  format: 'xlsx' | 'json';
  /** The filters of the export, as parsed; the search text is replaced by its description before writing. */
  filtres: Record<string, unknown>;
  lignes: number;
  /** The export holds the internal notes (« Inclure les notes internes »). */
  notesInternes?: true;
}

/** The filters as logged: codes and dates as given, the search text never (its kind, length and hash). */
function loggedFilters(cipher: DataCipher | null, filtres: Record<string, unknown>): Record<string, unknown> {
  const { search, ...rest } = filtres;
  const kept = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  if (typeof search === 'string' && search.trim() !== '') kept.recherche = describeSearch(cipher, search);
  return kept;
}

/** An export of the reports list: one entry; may raise an `export_massif` or `export_quotidien` alert. */
export async function recordExport(ctx: Services, actor: Actor, record: ExportRecord): Promise<void> {
  const { db, journal } = ctx;
  const filtres = loggedFilters(ctx.cipher, record.filtres);
  const at = ctx.clock.now();
  await db.transaction(async (tx) => {
    await recordAccess(db, { kind: 'export', ...byActor(actor), details: { ...record, filtres } }, tx, at);
    await checkMassiveExport(journal.settings, ctx.calendar, db, tx, actor.id, record.format, at);
  });
}

/** A change of rights or role made by an administrator (details: what changed, before → after). */
export async function recordRightsChange(
  ctx: Stamping,
  actor: Actor,
  details: Record<string, unknown>,
  tx?: Orm,
) {
  await recordAccess(ctx.db, { kind: 'droits', ...byActor(actor), details }, tx, ctx.clock.now());
}

/**
 * A report's assignee added or removed (docs/decisions/0028): a change of who may edit the report and know
 * its protected sources. `motif` says why an assignment ended without anyone choosing it.
 */
export async function recordAssignmentChange(
  ctx: Stamping,
  actor: Actor,
  signalement: string,
  details: { action: 'assignation' | 'desassignation'; utilisateur: string; motif?: 'compte_desactive' },
  tx: Orm,
) {
  await recordAccess(
    ctx.db,
    { kind: 'droits', ...byActor(actor), signalement, details },
    tx,
    ctx.clock.now(),
  );
}

/**
 * One bulk action on reports (docs/decisions/0035-bulk-actions.md), in its transaction: the action, the
 * selection (the filters as an export logs them, or how many codes were picked) and how many changed.
 */
export async function recordBulkAction(
  ctx: Pick<Services, 'db' | 'cipher' | 'clock'>,
  actor: Actor,
  details: { selection: 'codes' | 'filtre'; filtres?: Record<string, unknown> } & Record<string, unknown>,
  tx: Orm,
) {
  const logged = details.filtres
    ? { ...details, filtres: loggedFilters(ctx.cipher, details.filtres) }
    : details;
  await recordAccess(
    ctx.db,
    { kind: 'action_groupee', ...byActor(actor), details: logged },
    tx,
    ctx.clock.now(),
  );
}

/** A setting changed by an administrator (docs/decisions/0032): which one, before → after. */
export async function recordSettingChange(
  ctx: Stamping,
  actor: Actor,
  details:
    | { parametre: 'delai_traitement'; niveau: string; avant: number | null; apres: number | null }
    | { parametre: 'recapitulatif_quotidien'; avant: boolean; apres: boolean },
  tx: Orm,
) {
  await recordAccess(ctx.db, { kind: 'parametres', ...byActor(actor), details }, tx, ctx.clock.now());
}

/** A successful log-in step (password, then second factor when owed). */
export async function recordLogin(
  ctx: Stamping,
  user: Pick<SessionUser, 'id' | 'email'>,
  address: string,
  etape: LoginStep,
) {
  await recordAccess(
    ctx.db,
    { kind: 'connexion', userId: user.id, email: user.email, address, details: { etape } },
    undefined,
    ctx.clock.now(),
  );
}

/**
 * A refused log-in step, never the password or the code. A known account is named by its id and its own
 * e-mail; for an unknown one, the e-mail typed (which may be anything a person typed, a name included)
 * is kept only as a keyed hash, so that repeated tries of one address can be told apart from a spray.
 * Refusals by the limiter (`trop_de_tentatives`) are counted per address, not logged each (refusals.ts).
 */
export async function recordLoginFailure(
  ctx: Services,
  failure: { userId: number | null; email: string; address: string; motif: LoginFailure },
) {
  const { db, journal } = ctx;
  const write = async () => {
    const { userId, address, motif } = failure;
    const account = userId === null ? null : await accountEmail(db, userId);
    const details =
      account === null
        ? { motif, empreinte: textDigest(ctx.cipher, 'email', failure.email.trim().toLowerCase()) }
        : { motif };
    await recordAccess(
      db,
      { kind: 'echec_connexion', userId: account === null ? null : userId, email: account, address, details },
      undefined,
      ctx.clock.now(),
    );
  };
  if (failure.motif === 'trop_de_tentatives')
    await countRefusal(journal.refusals, db, failure.address, write);
  else await write();
}

async function accountEmail(db: Database, userId: number): Promise<string | null> {
  const u = db.t.utilisateurs;
  const [row] = await db.read.select({ email: u.email }).from(u).where(eq(u.id, userId)).limit(1);
  return row?.email ?? null;
}

/** One part of a print: how many were printed, or how many were withheld from the reader (need to know). */
export type PrintedPart = { nombre: number } | { protegees: true; masquees: number };

/** What a print of a report held (docs/decisions/0043-print-view.md): counts, never a name. */
export interface PrintRecord {
  auteurs: PrintedPart;
  sources: PrintedPart;
  victimes: PrintedPart;
  /** Present when the internal notes were printed (« Inclure les notes internes »). */
  notes?: PrintedPart;
  piecesJointes: PrintedPart;
  /** Present when the history was printed. */
  historique?: { entrees: number; masquees: number };
}

/**
 * A print of a report (docs/decisions/0043-print-view.md): one entry for the whole print, written before its
 * data is returned; a print shows people, so it counts as a read of them for the `lecture_massive` alerts.
 */
export async function recordPrint(
  ctx: Services,
  actor: Actor,
  signalement: string,
  record: PrintRecord,
): Promise<void> {
  await recordRead(ctx, actor, 'impression', signalement, { ...record });
}
