// The French words of the print view (docs/decisions/0043-print-view.md).

/** What a print holds beyond the report and its people, both off by default (`?historique=1&notes=1`). */
export interface PrintOptions {
  historique?: boolean;
  notes?: boolean;
}

/** The print view of a report; kept here (not in the lazy page) so the detail's menu links to it cheaply. */
export const printPath = (code: string, { historique = false, notes = false }: PrintOptions = {}) => {
  const query = [historique && 'historique=1', notes && 'notes=1'].filter(Boolean).join('&');
  return `/signalement/imprimer/${encodeURIComponent(code)}${query ? `?${query}` : ''}`;
};

export const PRINT_TEXT = {
  pageTitle: 'Impression du signalement',
  toolbar: "Actions d'impression",
  back: 'Retour',
  print: 'Imprimer',
  withHistory: "Inclure l'historique",
  withNotes: 'Inclure les notes internes',
  printedBy: (date: string, name: string) => `Imprimé le ${date} par ${name}`,
  loadFailed: "Impossible de préparer l'impression du signalement.",
  notFound: 'Signalement non trouvé.',
  noneAuteur: 'Aucun auteur présumé.',
  noneSource: 'Aucune source.',
  noneVictime: 'Aucune victime.',
  noneNote: 'Aucune note interne.',
  noneFile: 'Aucune pièce jointe.',
  noneHistory: 'Aucune modification enregistrée.',
  anonymous: 'Signalement anonyme',
} as const;
