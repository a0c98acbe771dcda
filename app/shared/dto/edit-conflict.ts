// The answer to a stale edit of a report (docs/decisions/0047-edit-conflicts.md): 409, the message below,
// the report's current version and, for each field the caller changed, the server's value and the caller's.

export const EDIT_CONFLICT_MESSAGE =
  "Ce signalement a été modifié par quelqu'un d'autre depuis que vous l'avez ouvert.";

export interface EditConflictFieldDto {
  /** The field's name in the update's input (description, niveau, subjects…). */
  champ: string;
  /** Its value on the server now, in the input's vocabulary (a code for a reference). */
  valeurActuelle: unknown;
  /** The value the caller sent. */
  votreValeur: unknown;
}

export interface EditConflictDto {
  status: 409;
  message: string;
  /** The version to send with a write that overrides the server's values. */
  version: number;
  champs: EditConflictFieldDto[];
}
