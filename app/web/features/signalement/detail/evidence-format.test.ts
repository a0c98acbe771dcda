import { describe, expect, it } from 'vitest';
import { formatBytes, kindOf, shortHash } from './evidence-format';

describe('evidence files as the card writes them', () => {
  it('writes sizes in French units of 1000 bytes', () => {
    expect([0, 1, 999, 1000, 12_500, 999_960, 1_500_000, 20_000_000, 2e9].map(formatBytes)).toEqual([
      '0 octet',
      '1 octet',
      '999 octets',
      '1 Ko',
      '12,5 Ko',
      '1 Mo',
      '1,5 Mo',
      '20 Mo',
      '2 Go',
    ]);
  });
  it('names the kind from the detected media type, and shortens the hash', () => {
    expect(
      ['application/pdf', 'image/png', 'audio/mpeg', 'video/mp4', 'application/zip'].map(kindOf),
    ).toEqual(['PDF', 'Image', 'Son', 'Vidéo', 'Document']);
    expect(shortHash('a'.repeat(64))).toBe('aaaaaaaaaaaa…');
  });
});
