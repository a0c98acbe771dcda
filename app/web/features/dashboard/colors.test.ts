import { describe, expect, it } from 'vitest';
import { circleColor, circleRadius, generatedColor, MAP_COLORS, resultColor } from './colors';

describe('dashboard colours and sizes (spec §9)', () => {
  it('sizes a circle 8 + 32 × count / max, and 5 when the maximum is 0', () => {
    expect(circleRadius(10, 10)).toBe(40);
    expect(circleRadius(0, 10)).toBe(8);
    expect(circleRadius(5, 20)).toBe(16);
    expect(circleRadius(0, 0)).toBe(5);
  });

  it('colours a circle by its ratio to the maximum, strictly above each threshold', () => {
    expect(circleColor(71, 100)).toBe(MAP_COLORS.veryHigh);
    expect(circleColor(70, 100)).toBe(MAP_COLORS.high);
    expect(circleColor(41, 100)).toBe(MAP_COLORS.high);
    expect(circleColor(40, 100)).toBe(MAP_COLORS.medium);
    expect(circleColor(21, 100)).toBe(MAP_COLORS.medium);
    expect(circleColor(20, 100)).toBe(MAP_COLORS.low);
    expect(circleColor(1, 100)).toBe(MAP_COLORS.low);
    expect(circleColor(0, 100)).toBe(MAP_COLORS.none);
    expect(circleColor(0, 0)).toBe(MAP_COLORS.none);
  });

  it('colours the five results by code and any other with a stable generated hue', () => {
    expect(resultColor('RESULTAT_AVERE')).toBe('#22c55e');
    expect(resultColor('RESULTAT_NON_AVERE')).toBe('#ef4444');
    expect(resultColor('RESULTAT_PARTIELLEMENT_AVERE')).toBe('#f59e0b');
    expect(resultColor('RESULTAT_NON_DETERMINE')).toBe('#9ca3af');
    expect(resultColor('RESULTAT_FAUX_SIGNALEMENT')).toBe('#8b5cf6');
    expect(resultColor('RESULTAT_CLASSE')).toBe(generatedColor('RESULTAT_CLASSE'));
    expect(resultColor('RESULTAT_CLASSE')).toMatch(/^hsl\(\d+, 65%, 50%\)$/);
    expect(generatedColor('A')).not.toBe(generatedColor('B'));
  });
});
