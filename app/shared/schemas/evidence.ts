// Input schemas of the evidence files, « Pièces jointes » (docs/decisions/0033-evidence-files.md), shared by the
// server (REST header, tRPC input) and the upload button (the name is checked before sending).
import { z } from 'zod';
import { EVIDENCE_NAME_MAX_LENGTH } from '../constants';
import { codeSchema } from './common';
import './zod-french';

export const EVIDENCE_NAME_MESSAGES = {
  required: 'Le nom du fichier est manquant.',
  tooLong: `Le nom du fichier ne peut pas dépasser ${EVIDENCE_NAME_MAX_LENGTH} caractères.`,
  forbidden: 'Le nom du fichier contient des caractères interdits.',
} as const;

// Control characters and path separators: a name is shown and offered back as a download, never a path.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const isForbiddenName = (name: string) =>
  name === '.' ||
  name === '..' ||
  LONE_SURROGATE.test(name) ||
  [...name].some((ch) => ch.charCodeAt(0) < 0x20 || ch === '\u007f' || ch === '/' || ch === '\\');

/** The file's name as the user's machine gave it (what the list shows and the download proposes). */
export const evidenceNameSchema = z
  .string({ error: EVIDENCE_NAME_MESSAGES.required })
  .trim()
  .min(1, { message: EVIDENCE_NAME_MESSAGES.required })
  .max(EVIDENCE_NAME_MAX_LENGTH, { message: EVIDENCE_NAME_MESSAGES.tooLong })
  .refine((name) => !isForbiddenName(name), {
    message: EVIDENCE_NAME_MESSAGES.forbidden,
  });

/** tRPC: one report's files, or one file. */
export const evidenceListSchema = z.object({ signalement: codeSchema });
export const evidenceCodeSchema = z.object({ code: codeSchema });
