// A saved filter as the sidebar and the manage dialog read it (docs/decisions/0046-saved-filters.md).
export interface FiltreDto {
  id: number;
  nom: string;
  /** The list's query string, normalised, without '?': the link is `/signalement/list?` + requete. */
  requete: string;
  partage: boolean;
  /** Its owner (shown on a shared filter); « Ancien compte » never occurs: a deleted account takes its filters. */
  proprietaire: { code: string; nomPrenom: string };
  /** Whether the reader owns it. */
  mien: boolean;
  /** Whether the reader may rename or delete it: its owner, or an administrator for a shared filter. */
  gerable: boolean;
}

/** The reader's personal filters, then the shared ones (each by name). */
export interface FiltresDto {
  personnels: FiltreDto[];
  partages: FiltreDto[];
}
