// User-visible text of the dashboard, as spec §2 and §8 write it where they do.

export const EMPTY_TEXT = 'Aucune donnée disponible';
export const GENERIC_ERROR = 'Erreur lors du chargement des données';

/** Error line and toast of each block of the live dashboard (spec §8). */
export const BLOCK_ERRORS = {
  metrics: {
    text: 'Impossible de charger les métriques du dashboard',
    toast: 'Erreur lors du chargement des métriques',
  },
  perDay: {
    text: 'Impossible de charger les données temporelles',
    toast: 'Erreur lors du chargement du graphique',
  },
  map: {
    text: 'Impossible de charger les données de localisation',
    toast: 'Erreur lors du chargement de la carte',
  },
  canal: {
    text: 'Impossible de charger les données de canal',
    toast: 'Erreur lors du chargement des canaux',
  },
} as const;

export const METRIC_LABELS = {
  total: 'Total Signalement',
  treated: 'Signalement Traité',
  inProgress: 'Signalement En Cours',
  closed: 'Signalement Clôturé',
} as const;

export const MAP_VIEWS = [
  { type: 'Region', label: 'Région' },
  { type: 'District', label: 'District' },
  { type: 'Commune', label: 'Commune' },
] as const;

export const MAP_LEGEND = ['Faible', 'Moyen', 'Élevé', 'Très élevé'] as const;

/** From shared/data/geo/README.md: the licence of the boundary layer asks for this credit. */
export const MAP_ATTRIBUTION =
  'Limites administratives : BNGRC / OCHA, Madagascar – Subnational Administrative Boundaries (COD-AB, 2018-10-31), via HDX — CC BY 3.0 IGO.';

/** 'N signalement(s) au total • Moyenne: X/jour • Maximum: Y' (spec §2). */
export function perDaySummary(total: string, average: string, maximum: string): string {
  return `${total} signalement(s) au total • Moyenne: ${average}/jour • Maximum: ${maximum}`;
}
