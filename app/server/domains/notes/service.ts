// Internal notes of a report, « Notes internes » (docs/decisions/0029-internal-notes.md): plain text by staff,
// stored encrypted with the data key and opened only for a reader allowed to see it (server/crypto/notes.ts),
// read by whoever may read the report, and on an anonymous report only by whoever may know its sources (the
// same function decides both). Their author may edit or delete a note for NOTE_EDIT_MINUTES by the
// context's clock, then it is frozen. Every change goes to the report's history and to the access log (without
// the text, in the change's transaction), every read to the access log.
import { asc, count, eq } from 'drizzle-orm';
import { NOTE_EDIT_MINUTES } from '#shared/constants';
import type { NoteDto, NotesListDto } from '#shared/dto/notes';
import { cipherOf, type AppContext } from '#server/context';
import { openNote, sealNote } from '#server/crypto/notes';
import type { Orm } from '#server/db/client';
import { insertWithFreshCode } from '#server/db/fresh-code';
import { conflict, forbidden, notFound } from '#server/errors';
import type { SessionUser } from '../auth/session';
import { recordNoteChange, recordNotesRead, type NotesRead } from '../journal/record';
import { selectNotes } from './queries';
import { iri } from '../referentiels/dto';
import {
  canEditAs,
  canSeeSources,
  findEditable,
  findSignalement,
  type SignalementRow,
} from '../signalements/access';
import { generateCode } from '../signalements/code';
import { recordChange } from '../signalements/history';

/** What the notes' services receive: the database, the access log's settings, the clock and the calendar. */
export type NotesContext = Pick<AppContext, 'db' | 'cipher' | 'journal' | 'clock' | 'calendar'>;

export const NOTE_PREFIX = 'NOT';
export const NOTE_TEXTS = {
  notFound: 'Note introuvable.',
  notAuthor: "Seul l'auteur d'une note peut la modifier ou la supprimer.",
  frozen: `Cette note ne peut plus être modifiée ni supprimée : le délai de ${NOTE_EDIT_MINUTES} minutes après sa création est dépassé.`,
  protectedReport:
    'Les notes internes de ce signalement anonyme sont réservées à ceux qui peuvent en connaître les sources.',
} as const;

const EDIT_WINDOW_MS = NOTE_EDIT_MINUTES * 60_000;

/** Whether the actor may read an anonymous report's notes: the sources' need-to-know rule, called, not copied. */
const mayReadNotes = (actor: SessionUser, report: SignalementRow) => canSeeSources(actor, report);

type NoteRow = {
  id: number;
  code: string;
  texte: string;
  authorId: number;
  createdAt: Date;
  updatedAt: Date | null;
  auteur: { code: string; nomPrenom: string };
};

/** A stored note with its text opened (a text that does not open is refused: 422, logged). */
const opened = <R extends { code: string; texte: string }>(ctx: NotesContext, row: R): R => ({
  ...row,
  texte: openNote(cipherOf(ctx), row.code, row.texte),
});

function noteDto(
  row: NoteRow,
  reportCode: string,
  actor: SessionUser,
  mayWrite: boolean,
  now: Date,
): NoteDto {
  const until = new Date(row.createdAt.getTime() + EDIT_WINDOW_MS);
  return {
    '@id': iri('notes', row.code),
    '@type': 'NoteInterne',
    code: row.code,
    signalement: iri('signalements', reportCode),
    texte: row.texte,
    auteur: row.auteur,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt?.toISOString() ?? null,
    modifiableJusquA: until.toISOString(),
    modifiable: mayWrite && row.authorId === actor.id && now.getTime() <= until.getTime(),
  };
}

/**
 * The report's notes, oldest first (a thread reads top to bottom, the form below the last one). A caller
 * without the need to know an anonymous report's sources gets none and their number. The read is written in
 * the access log before the answer is returned.
 */
export async function listNotes(
  ctx: NotesContext,
  actor: SessionUser,
  signalement: string,
): Promise<NotesListDto> {
  const report = await findSignalement(ctx.db, signalement);
  const { list, read } = await readNotes(ctx, actor, report);
  await recordNotesRead(ctx, actor, report.code, read);
  return list;
}

/**
 * The report's notes as listNotes answers them, and what the access log must say of the read, not logged:
 * for a caller that logs the read itself (the print view). Same need-to-know rule.
 */
export async function readNotes(
  ctx: NotesContext,
  actor: SessionUser,
  report: SignalementRow,
): Promise<{ list: NotesListDto; read: NotesRead }> {
  const { db } = ctx;
  const n = db.t.reportNotes;
  if (!mayReadNotes(actor, report)) {
    const [row] = await db.read.select({ n: count() }).from(n).where(eq(n.signalementId, report.id));
    const masquees = Number(row?.n ?? 0);
    return { list: { notes: [], peutAjouter: false, masquees }, read: { protegees: true, masquees } };
  }
  const rows = await selectNotes(db, db.read)
    .where(eq(n.signalementId, report.id))
    .orderBy(asc(n.createdAt), asc(n.id));
  const mayWrite = canEditAs(actor)(report);
  const now = ctx.clock.now();
  return {
    list: {
      notes: rows.map((r) => noteDto(opened(ctx, r), report.code, actor, mayWrite, now)),
      peutAjouter: mayWrite,
      masquees: 0,
    },
    read: { nombre: rows.length },
  };
}

/** Adds a note: whoever may edit the report (spec §6: adding goes with editing). */
export async function createNote(
  ctx: NotesContext,
  actor: SessionUser,
  input: { signalement: string; texte: string },
): Promise<NoteDto> {
  const { db } = ctx;
  const n = db.t.reportNotes;
  return db.transaction(async (tx) => {
    const report = await findEditable(db, actor, input.signalement, tx);
    if (!mayReadNotes(actor, report)) throw forbidden(NOTE_TEXTS.protectedReport);
    const now = ctx.clock.now();
    const row = await insertWithFreshCode(
      'note',
      () => generateCode(NOTE_PREFIX),
      async (code) =>
        (
          await tx
            .insert(n)
            .values({
              code,
              signalementId: report.id,
              authorId: actor.id,
              texte: sealNote(cipherOf(ctx), code, input.texte),
              createdAt: now,
            })
            .onConflictDoNothing({ target: n.code })
            .returning({ id: n.id })
        )[0],
    );
    const [stored] = await selectNotes(db, tx).where(eq(n.id, row.id));
    await recordChange(ctx, tx, report.id, actor, 'note.ajout', {
      note: { from: null, to: stored!.code },
      longueur: { from: null, to: input.texte.length },
    });
    await recordNoteChange(ctx, actor, report.code, { action: 'ajout', note: stored!.code }, tx);
    return noteDto({ ...stored!, texte: input.texte }, report.code, actor, true, now);
  });
}

/**
 * A create repeated with its Idempotency-Key (decision 0020) answers the note as a fresh read would today, and
 * is logged like one: a caller who may no longer know the report's sources gets the note's code and no text.
 */
export async function rereadNote(ctx: NotesContext, actor: SessionUser, stored: NoteDto): Promise<NoteDto> {
  const { db } = ctx;
  const { reportNotes: n, signalements: s } = db.t;
  const [found] = await db.read
    .select({ id: n.id, reportCode: s.code })
    .from(n)
    .innerJoin(s, eq(s.id, n.signalementId))
    .where(eq(n.code, stored.code))
    .limit(1);
  if (!found) throw notFound(NOTE_TEXTS.notFound);
  const report = await findSignalement(db, found.reportCode);
  const [note] = await selectNotes(db, db.read).where(eq(n.id, found.id));
  const now = ctx.clock.now();
  if (!mayReadNotes(actor, report)) {
    await recordNotesRead(ctx, actor, report.code, { protegees: true, masquees: 1 });
    // Never opened for a caller who may not read it.
    return { ...noteDto(note!, report.code, actor, false, now), texte: '' };
  }
  await recordNotesRead(ctx, actor, report.code, { nombre: 1 });
  return noteDto(opened(ctx, note!), report.code, actor, canEditAs(actor)(report), now);
}

/**
 * The note, checked for a change by `actor`: 404 when it does not exist, 403 when the actor may not edit
 * its report or is not its author (administrators included: a note is its author's word), 409 once frozen.
 */
async function noteForChange(ctx: NotesContext, tx: Orm, actor: SessionUser, code: string) {
  const { db } = ctx;
  const { reportNotes: n, signalements: s } = db.t;
  const [found] = await tx
    .select({ id: n.id, reportCode: s.code })
    .from(n)
    .innerJoin(s, eq(s.id, n.signalementId))
    .where(eq(n.code, code))
    .limit(1);
  if (!found) throw notFound(NOTE_TEXTS.notFound);
  const report = await findEditable(db, actor, found.reportCode, tx);
  const [stored] = await selectNotes(db, tx).where(eq(n.id, found.id));
  if (stored!.authorId !== actor.id) throw forbidden(NOTE_TEXTS.notAuthor);
  const now = ctx.clock.now();
  if (now.getTime() > stored!.createdAt.getTime() + EDIT_WINDOW_MS) throw conflict(NOTE_TEXTS.frozen);
  return { note: opened(ctx, stored!), report, now };
}

export async function updateNote(
  ctx: NotesContext,
  actor: SessionUser,
  code: string,
  input: { texte: string },
): Promise<NoteDto> {
  const { db } = ctx;
  const n = db.t.reportNotes;
  return db.transaction(async (tx) => {
    const { note, report, now } = await noteForChange(ctx, tx, actor, code);
    if (note.texte === input.texte) return noteDto(note, report.code, actor, true, now);
    await tx
      .update(n)
      .set({ texte: sealNote(cipherOf(ctx), code, input.texte), updatedAt: now })
      .where(eq(n.id, note.id));
    await recordChange(ctx, tx, report.id, actor, 'note.modification', {
      note: { from: code, to: code },
      longueur: { from: note.texte.length, to: input.texte.length },
    });
    await recordNoteChange(ctx, actor, report.code, { action: 'modification', note: code }, tx);
    return noteDto({ ...note, texte: input.texte, updatedAt: now }, report.code, actor, true, now);
  });
}

export async function deleteNote(ctx: NotesContext, actor: SessionUser, code: string): Promise<void> {
  const { db } = ctx;
  const n = db.t.reportNotes;
  await db.transaction(async (tx) => {
    const { note, report } = await noteForChange(ctx, tx, actor, code);
    await tx.delete(n).where(eq(n.id, note.id));
    await recordChange(ctx, tx, report.id, actor, 'note.suppression', {
      note: { from: code, to: null },
      longueur: { from: note.texte.length, to: null },
    });
    await recordNoteChange(ctx, actor, report.code, { action: 'suppression', note: code }, tx);
  });
}
