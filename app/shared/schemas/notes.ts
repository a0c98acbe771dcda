// Input schemas of the internal notes (docs/decisions/0029-internal-notes.md), shared by the server (tRPC
// input, REST body) and the note form (react-hook-form through zodResolver).
import { z } from 'zod';
import { NOTE_MAX_LENGTH } from '../constants';
import { codeSchema, ref } from './common';
import './zod-french';

export const NOTE_MESSAGES = {
  required: 'La note ne peut pas être vide.',
  tooLong: `La note ne peut pas dépasser ${NOTE_MAX_LENGTH} caractères.`,
} as const;

/** Plain text: trimmed at both ends, its line breaks kept as typed (no Markdown, never HTML). */
export const noteTextSchema = z
  .string({ error: NOTE_MESSAGES.required })
  .trim()
  .min(1, { message: NOTE_MESSAGES.required })
  .max(NOTE_MAX_LENGTH, { message: NOTE_MESSAGES.tooLong });

/** The body of a note, written or edited (REST POST and PATCH, and the form). */
export const noteSchema = z.object({ texte: noteTextSchema });
export type NoteInput = z.input<typeof noteSchema>;

/** tRPC: a note on a report (its code, or its IRI). */
export const noteCreateSchema = noteSchema.extend({ signalement: ref('signalements') });
/** tRPC: the new text of one note. */
export const noteUpdateSchema = noteSchema.extend({ code: codeSchema });
/** tRPC: one note, or one report's notes. */
export const noteCodeSchema = z.object({ code: codeSchema });
export const notesListSchema = z.object({ signalement: codeSchema });
