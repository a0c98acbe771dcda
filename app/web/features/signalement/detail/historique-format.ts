// How a history entry reads in the 'Historique' panel: French action and field names, values as people
// read them (Oui/Non, dd/MM/yyyy, lists joined).
import { formatDate, formatDateTime } from '#web/lib/format';

const ACTIONS: Record<string, string> = {
  creation: 'Création du signalement',
  modification: 'Modification du signalement',
  localisation: 'Modification de la localisation',
  notification: 'Email envoyé au partenaire',
  assignation: 'Assignation',
  desassignation: "Fin d'assignation",
  'auteur.ajout': 'Auteur ajouté',
  'auteur.modification': 'Auteur modifié',
  'auteur.suppression': 'Auteur supprimé',
  'source.ajout': 'Source ajoutée',
  'source.modification': 'Source modifiée',
  'source.suppression': 'Source supprimée',
  'victime.ajout': 'Victime ajoutée',
  'victime.modification': 'Victime modifiée',
  'victime.suppression': 'Victime supprimée',
  'note.ajout': 'Note interne ajoutée',
  'note.modification': 'Note interne modifiée',
  'note.suppression': 'Note interne supprimée',
  'piece_jointe.ajout': 'Pièce jointe ajoutée',
  'piece_jointe.suppression': 'Pièce jointe supprimée',
};

const FIELDS: Record<string, string> = {
  signalementAt: 'Date de signalement',
  partenaire: 'Partenaire',
  canalPrincipal: 'Canal principal',
  autreCanalPrincipal: 'Autre canal',
  subjects: 'Objets',
  autreObject: 'Autre objet',
  description: 'Description',
  niveau: 'Niveau',
  statut: 'Statut',
  resultat: 'Résultat',
  isTreated: 'Traité',
  closeAt: 'Date de clôture',
  lastActionAt: 'Dernière action',
  isConfict: 'Conflit',
  isRecurrent: 'Récurrent',
  isInternalResponsability: 'Responsabilité interne',
  isAnonyme: 'Anonyme',
  projects: 'Projets',
  actionProvisoires: 'Actions provisoires',
  preuves: 'Preuves',
  region: 'Région',
  district: 'District',
  commune: 'Commune',
  fokontany: 'Fokontany',
  nomPrenom: 'Nom',
  fonction: 'Fonction',
  contact: 'Contact',
  canaux: 'Canaux',
  autreCanal: 'Autre canal',
  email: 'Destinataire',
  assignes: 'Assignés',
  // A note's entry names it and gives its length, never its text (docs/decisions/0029-internal-notes.md).
  note: 'Note',
  longueur: 'Longueur (caractères)',
  // An evidence file's entry: its code, name and SHA-256, never its content (docs/decisions/0033-evidence-files.md).
  piece: 'Pièce jointe',
  nom: 'Nom du fichier',
  sha256: 'Empreinte SHA-256',
};

export const actionLabel = (action: string) => ACTIONS[action] ?? action;
export const fieldLabel = (field: string) => FIELDS[field] ?? field;

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const EMPTY = '—';

export function formatHistoryValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return EMPTY;
  if (typeof value === 'boolean') return value ? 'Oui' : 'Non';
  if (Array.isArray(value)) return value.length ? value.map(formatHistoryValue).join(', ') : EMPTY;
  if (typeof value === 'string') {
    if (!ISO_DATE_TIME.test(value)) return value;
    // A report date is a calendar day (midnight): no time to show.
    return /T00:00:00(\.000)?Z$/.test(value) ? formatDate(value) : formatDateTime(value);
  }
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

export interface HistoryLine {
  field: string;
  label: string;
  from: string;
  to: string;
}

/**
 * The lines worth showing: the report's creation lists nothing (every field would go from empty to its
 * value), and the person's code, which only identifies the row, is left out.
 */
export function historyLines(
  action: string,
  changes: Record<string, { from?: unknown; to?: unknown }>,
): HistoryLine[] {
  if (action === 'creation') return [];
  return Object.entries(changes)
    .filter(([field]) => field !== 'code')
    .map(([field, change]) => ({
      field,
      label: fieldLabel(field),
      from: formatHistoryValue(change.from),
      to: formatHistoryValue(change.to),
    }));
}
