// What the server returns for the evidence files (docs/decisions/0033-evidence-files.md). Dates are ISO strings.

export interface EvidenceDto {
  '@id': string;
  '@type': 'PieceJointe';
  code: string;
  signalement: string;
  nom: string;
  /** The media type detected from the content (never the name's extension or the browser's claim). */
  type: string;
  /** Size in bytes. */
  taille: number;
  /** SHA-256 of the content, hexadecimal (chain of custody). */
  sha256: string;
  auteur: { code: string; nomPrenom: string };
  createdAt: string;
  /** Where its content is downloaded (always as an attachment). */
  contenu: string;
  /** Whether the caller may delete it now: its uploader within the window, or an administrator. */
  supprimable: boolean;
}

/** A report's files, newest first; on an anonymous report a caller without the need to know gets their number only. */
export interface EvidenceListDto {
  piecesJointes: EvidenceDto[];
  /** Whether the caller may attach a file to this report. */
  peutAjouter: boolean;
  /** Files withheld from this caller (need to know); 0 otherwise. */
  masquees: number;
  /** The limits in bytes: per file, and for all the report's files; and what the report's files already take. */
  limites: { fichier: number; signalement: number; utilise: number };
}
