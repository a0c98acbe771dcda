// What the access-log screen and the dashboard alerts say, in one place (decision 0015, "Alerts").
import { formatNumber } from '#web/lib/format';

export const JOURNAL_TEXT = {
  title: 'Journal des accès',
  subtitle:
    'Qui a consulté les personnes des signalements, exporté des données, changé des droits ou tenté de se connecter.',
  total: (n: number) => `${formatNumber(n)} entrée(s) au total`,
  empty: 'Aucune entrée trouvée.',
  loadFailed: 'Impossible de charger le journal des accès',
  retry: 'Réessayer',
  // Filters
  filtersLabel: 'Filtres du journal',
  userLabel: 'Utilisateur',
  userPlaceholder: 'Tous les utilisateurs',
  userEmpty: 'Aucun utilisateur trouvé.',
  signalementLabel: 'Code du signalement',
  // The real shape of a code (server/domains/signalements/code.ts: SIG- and two groups of Crockford base32).
  signalementPlaceholder: 'Ex. : SIG-7K2M-Q9ZD',
  kindLabel: "Type d'accès",
  kindAll: 'Tous les types',
  fromLabel: 'Du',
  toLabel: 'Au',
  apply: 'Filtrer',
  reset: 'Réinitialiser les filtres',
  // Table
  columns: {
    at: 'Date',
    user: 'Utilisateur',
    address: 'Adresse',
    kind: 'Type',
    signalement: 'Signalement',
    detail: 'Détail',
  },
  unknownUser: 'Utilisateur inconnu',
  none: '-',
  // Export
  export: 'Exporter (xlsx)',
  exporting: 'Export en cours...',
  exported: (n: number) => `Export réussi ! ${formatNumber(n)} entrée(s) exportée(s)`,
  exportFailed: (message: string | undefined) => `Erreur lors de l'export: ${message || 'Erreur inconnue'}`,
} as const;

export const ALERTS_TEXT = {
  title: "Alertes d'accès",
  intro: (n: number) =>
    n === 1
      ? 'Une lecture inhabituelle demande votre attention.'
      : `${formatNumber(n)} lectures inhabituelles demandent votre attention.`,
  raisedAt: (date: string) => `le ${date}`,
  viewLog: 'Voir le journal',
  markSeen: 'Marquer comme vue',
  markedSeen: 'Alerte marquée comme vue.',
  markFailed: "Impossible de marquer l'alerte comme vue",
  loadFailed: "Impossible de charger les alertes d'accès",
} as const;
