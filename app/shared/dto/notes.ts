// What the server returns for the internal notes (docs/decisions/0029-internal-notes.md). Dates are ISO strings.

export interface NoteDto {
  '@id': string;
  '@type': 'NoteInterne';
  code: string;
  signalement: string;
  texte: string;
  auteur: { code: string; nomPrenom: string };
  createdAt: string;
  /** The last edit, null when never edited. */
  updatedAt: string | null;
  /** Until when its author may still edit or delete it (the server decides; the screen hides the buttons after). */
  modifiableJusquA: string;
  /** Whether the caller may edit or delete it now: its author, within the window, with the right to write notes. */
  modifiable: boolean;
}

/**
 * A report's notes, oldest first. On an anonymous report, a caller without the need to know gets none and
 * their number (`masquees`), as for its sources.
 */
export interface NotesListDto {
  notes: NoteDto[];
  /** Whether the caller may add a note to this report. */
  peutAjouter: boolean;
  /** Notes withheld from this caller (need to know); 0 otherwise. */
  masquees: number;
}
