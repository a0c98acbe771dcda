import { describe, expect, it } from 'vitest';
import { pgRestoreName } from './restore-postgres';

describe('names of a PostgreSQL restore', () => {
  it('keeps the date whole within 63 bytes, so two restores of a long-named database never collide', () => {
    const long = 'signalements_production_antananarivo_region_analamanga_principale';
    const first = pgRestoreName(long, 'avant_restauration', '20261125101500');
    const second = pgRestoreName(long, 'avant_restauration', '20261125111500');
    expect(first).not.toBe(second);
    for (const name of [first, second, pgRestoreName(long, 'restauration', '20261125101500')]) {
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(63);
    }
    expect(first.endsWith('_avant_restauration_20261125101500')).toBe(true);
  });

  it('counts bytes, not characters, and leaves a short name whole', () => {
    expect(
      Buffer.byteLength(pgRestoreName('é'.repeat(40), 'restauration', '20261125101500')),
    ).toBeLessThanOrEqual(63);
    expect(pgRestoreName('signalements', 'avant_restauration', '20261125101500')).toBe(
      'signalements_avant_restauration_20261125101500',
    );
  });
});
