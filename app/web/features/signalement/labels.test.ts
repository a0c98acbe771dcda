import { describe, expect, it } from 'vitest';
import { TOASTS, truncate } from './labels';

describe('truncate', () => {
  it('keeps 50 characters and marks the cut', () => {
    const long = 'a'.repeat(60);
    expect(truncate(long)).toBe(`${'a'.repeat(50)}…`);
    expect(truncate('x'.repeat(50))).toBe('x'.repeat(50));
    expect(truncate('  court  ')).toBe('court');
  });
  it('counts characters, not UTF-16 units', () => {
    expect(truncate('é'.repeat(51))).toBe(`${'é'.repeat(50)}…`);
  });
});

describe('export toasts', () => {
  it('match §8', () => {
    expect(TOASTS.exported(3)).toBe('Export réussi ! 3 signalement(s) exporté(s)');
    expect(TOASTS.exportFailed(undefined)).toBe("Erreur lors de l'export: Erreur inconnue");
    expect(TOASTS.exported(12_345)).toBe('Export réussi ! 12\u202f345 signalement(s) exporté(s)');
  });
});
