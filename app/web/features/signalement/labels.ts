// Texts the report screens share (spec §2, §8), gathered so that a screen finds them by name.
import { OTHERS_BADGE_MAX_CHARS } from '#shared/constants';
import { formatNumber } from '#web/lib/format';

export const EMPTY_VALUE = 'Non renseigné';
export const BADGE_EMPTY = 'non renseigné';
export const NOT_CLOSED = 'Non fermé';
export const TREATED = 'Traité';
export const IN_PROGRESS = 'En cours de traitement';

export const TOASTS = {
  formLoadFailed: 'Impossible de charger les données du formulaire.',
  createFailed: 'Échec de la création du signalement.',
  created: 'Signalement initialisé avec succès !',
  reportLoadFailed: 'Impossible de charger les données du signalement.',
  updated: 'Signalement mis à jour avec succès !',
  updateFailed: 'Échec de la mise à jour.',
  anonymousOn: 'Signalement marqué comme anonyme.',
  anonymousOff: 'Signalement marqué comme non anonyme.',
  anonymousFailed: 'Erreur lors de la mise à jour.',
  locationLoadFailed: 'Impossible de charger la localisation.',
  locationUpdated: 'Localisation mise à jour.',
  deleteFailed: 'Échec de la suppression.',
  projectFailed: 'Échec de la création du projet.',
  projectCreated: (designation: string) => `Le projet "${designation}" a été créé avec succès.`,
  mailLoadFailed: 'Impossible de charger le contenu par défaut du mail',
  mailFailed: "Échec de l'envoi de l'email",
  mailFailedHint: 'Veuillez réessayer plus tard',
  mailSent: 'Email envoyé avec succès !',
  exported: (n: number) => `Export réussi ! ${formatNumber(n)} signalement(s) exporté(s)`,
  exportFailed: (message: string | undefined) => `Erreur lors de l'export: ${message || 'Erreur inconnue'}`,
} as const;

/** The OTHERS description in a subject badge: at most 50 characters, then an ellipsis (§9). */
export function truncate(text: string, max = OTHERS_BADGE_MAX_CHARS): string {
  const chars = [...text.trim()];
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : chars.join('');
}

/** A report nobody is assigned to (docs/decisions/0028). */
export const NOT_ASSIGNED_LABEL = 'Non assigné';
