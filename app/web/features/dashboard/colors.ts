// Colours of spec §9: map circles by ratio to the maximum, results by code, an 8-colour channel palette.

export const MAP_COLORS = {
  veryHigh: '#ef4444',
  high: '#f97316',
  medium: '#eab308',
  low: '#22c55e',
  none: '#9ca3af',
} as const;

/** Legend order: Faible, Moyen, Élevé, Très élevé. */
export const MAP_LEGEND_COLORS = [
  MAP_COLORS.low,
  MAP_COLORS.medium,
  MAP_COLORS.high,
  MAP_COLORS.veryHigh,
] as const;

/** Red above 0.7 of the maximum, orange above 0.4, yellow above 0.2, else green; grey at 0. */
export function circleColor(count: number, max: number): string {
  if (count <= 0 || max <= 0) return MAP_COLORS.none;
  const ratio = count / max;
  if (ratio > 0.7) return MAP_COLORS.veryHigh;
  if (ratio > 0.4) return MAP_COLORS.high;
  if (ratio > 0.2) return MAP_COLORS.medium;
  return MAP_COLORS.low;
}

/** 8 + 32 × count / max pixels; 5 when the maximum is 0. */
export function circleRadius(count: number, max: number): number {
  return max === 0 ? 5 : 8 + 32 * (count / max);
}

const RESULT_COLORS: Record<string, string> = {
  RESULTAT_AVERE: '#22c55e',
  RESULTAT_NON_AVERE: '#ef4444',
  RESULTAT_PARTIELLEMENT_AVERE: '#f59e0b',
  RESULTAT_NON_DETERMINE: '#9ca3af',
  RESULTAT_FAUX_SIGNALEMENT: '#8b5cf6',
};

/** A stable hue from the code, for a result an administrator added later. */
export function generatedColor(code: string): string {
  let hash = 0;
  for (const char of code) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `hsl(${hash % 360}, 65%, 50%)`;
}

export function resultColor(code: string): string {
  return RESULT_COLORS[code] ?? generatedColor(code);
}

export const CHANNEL_PALETTE = [
  '#3b82f6',
  '#10b981',
  '#f59e0b',
  '#ef4444',
  '#8b5cf6',
  '#06b6d4',
  '#ec4899',
  '#84cc16',
] as const;

export const channelColor = (index: number): string => CHANNEL_PALETTE[index % CHANNEL_PALETTE.length]!;
