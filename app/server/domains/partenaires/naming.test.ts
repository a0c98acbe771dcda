import { describe, expect, it } from 'vitest';
import { firstFreeCode, leastUsedColor, PARTNER_PALETTE, partnerCodeBase, partnerInitial } from './naming';

describe('partner naming', () => {
  it('builds an uppercase ASCII code from the significant words of the designation', () => {
    expect(partnerCodeBase('Ministère de la Justice')).toBe('MINJUS');
    expect(partnerCodeBase("Inspection Générale de l'État")).toBe('INSGENETA');
    expect(partnerCodeBase('Bureau Indépendant Anti-Corruption (BIANCO)')).toBe('BURINDANTCOR');
    expect(partnerCodeBase('Médiature')).toBe('MEDIATUR');
    expect(partnerCodeBase('  de la  ')).toBe('DELA');
    expect(partnerCodeBase('!!')).toBe('PART');
  });

  it('takes the first free code of base, base2, base3…', () => {
    expect(firstFreeCode('MINJUS', new Set())).toBe('MINJUS');
    expect(firstFreeCode('MINJUS', new Set(['MINJUS', 'MINJUS2', 'MINJUSTICE']))).toBe('MINJUS3');
  });

  it('derives a two-letter initial', () => {
    expect(partnerInitial('Ministère de la Justice')).toBe('MJ');
    expect(partnerInitial('Ivorary')).toBe('IV');
    expect(partnerInitial('écoute')).toBe('EC');
  });

  it('chooses the least used palette colour, in palette order on ties', () => {
    expect(leastUsedColor(new Map())).toBe(PARTNER_PALETTE[0]);
    expect(leastUsedColor(new Map([[PARTNER_PALETTE[0], 1]]))).toBe(PARTNER_PALETTE[1]);
    const allOnce = new Map<string, number>(PARTNER_PALETTE.map((c) => [c, 1]));
    allOnce.set(PARTNER_PALETTE[3], 0);
    expect(leastUsedColor(allOnce)).toBe(PARTNER_PALETTE[3]);
  });
});
