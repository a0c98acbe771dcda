import type { RouterOutputs } from '#web/lib/trpc';

export type PartenaireRow = RouterOutputs['partenaires']['list']['items'][number];

/** What the partners screen says (spec §2 Partners, §8 Partners), in one place. */
export const PARTENAIRES_TEXT = {
  title: 'Liste des Partenaires',
  searchPlaceholder: 'Rechercher par nom, code, email...',
  newPartner: 'Nouveau Partenaire',
  editTitle: 'Modifier le partenaire',
  empty: 'Aucun partenaire trouvé.',
  loadFailed: 'Erreur lors du chargement des partenaires.',
  createFailed: 'Échec de la création du partenaire.',
  updateFailed: 'Échec de la mise à jour du partenaire.',
  created: 'Partenaire créé avec succès !',
  updated: 'Partenaire mis à jour avec succès !',
  deleteFailed: 'Échec de la suppression du partenaire.',
  deleted: 'Le partenaire a été supprimé avec succès.',
  deleteTitle: 'Êtes-vous sûr de vouloir supprimer ce partenaire ?',
  deleteDescription: 'Cette action est irréversible. Le partenaire sera définitivement supprimé.',
  deleteLinked: 'Ce partenaire ne peut pas être supprimé car il est lié à des projets ou des signalements.',
  deleteInternal: 'Le partenaire interne Ivorary ne peut pas être supprimé.',
  edit: 'Modifier',
  delete: 'Supprimer',
} as const;

/** '+261341234567' → '+261 34 12 345 67'; anything else as stored. */
export function formatPhone(stored: string): string {
  const match = /^\+261(\d{2})(\d{2})(\d{3})(\d{2})$/.exec(stored);
  return match ? `+261 ${match.slice(1).join(' ')}` : stored;
}
