// The French words of the list's bulk actions (docs/decisions/0035-bulk-actions.md), in one place.
import { BULK_MAX } from '#shared/constants';
import { formatNumber } from '#web/lib/format';

const n = formatNumber;
const reports = (count: number) => `${n(count)} signalement${count > 1 ? 's' : ''}`;

export const BULK_TEXTS = {
  selectRow: (code: string) => `Sélectionner le signalement ${code}`,
  selectPage: 'Sélectionner les signalements de la page',
  selectFilter: (total: number) => `Sélectionner les ${n(total)} signalements du filtre`,
  pageSelected: (count: number) =>
    count > 1
      ? `Les ${n(count)} signalements de cette page sont sélectionnés.`
      : 'Le signalement de cette page est sélectionné.',
  filterSelected: (total: number) => `Les ${reports(total)} du filtre sont sélectionnés.`,
  /** The list's total is only bounded (« plus de 1 000 », decision 0022): the preview gives the number. */
  selectFilterUncounted: 'Sélectionner tous les signalements du filtre',
  filterSelectedUncounted: 'Tous les signalements du filtre sont sélectionnés.',
  selectedUncounted: 'Tous les signalements du filtre',
  filterTooLarge: `Le filtre compte plus de ${n(BULK_MAX)} signalements : affinez-le pour agir sur tous.`,
  clearSelection: 'Annuler la sélection',
  toolbar: 'Actions groupées',
  selected: (count: number) => `${reports(count)} sélectionné${count > 1 ? 's' : ''}`,
  assign: 'Assigner',
  unassign: 'Désassigner',
  statut: 'Changer le statut',
  niveau: 'Changer le niveau',
  userLabel: 'Utilisateur',
  userPlaceholder: 'Choisir un utilisateur',
  statutLabel: 'Nouveau statut',
  niveauLabel: 'Nouveau niveau',
  noNiveau: 'Aucun niveau',
  choose: 'Choisir…',
  counting: 'Calcul du nombre de signalements concernés…',
  willChange: (count: number) =>
    count === 0
      ? 'Aucun signalement ne sera modifié : ils sont déjà dans cet état.'
      : `${reports(count)} ${count > 1 ? 'seront modifiés' : 'sera modifié'}.`,
  confirm: 'Confirmer',
  done: (count: number) =>
    count === 0 ? 'Aucun signalement modifié.' : `${reports(count)} modifié${count > 1 ? 's' : ''}.`,
  failed: "Échec de l'action groupée.",
  previewFailed: 'Impossible de calculer le nombre de signalements concernés.',
} as const;
