import { describe, expect, it } from 'vitest';
import { OFFLINE_TEXT } from './offline-text';

describe('offline texts', () => {
  it('say how many changes are lost, in French singular and plural, with French numbers', () => {
    expect(OFFLINE_TEXT.lostAtLogout(1)).toBe(
      '1 modification en attente n’est pas encore envoyée : elle sera perdue si vous vous déconnectez.',
    );
    expect(OFFLINE_TEXT.lostAtLogout(2)).toBe(
      '2 modifications en attente ne sont pas encore envoyées : elles seront perdues si vous vous déconnectez.',
    );
    expect(OFFLINE_TEXT.reconnectFirst(1)).toContain('pour l’envoyer.');
    expect(OFFLINE_TEXT.reconnectFirst(3)).toContain('pour les envoyer.');
    expect(OFFLINE_TEXT.lostAtSessionEnd(1)).toMatch(/^1 modification en attente n’a pas pu être envoyée/);
    expect(OFFLINE_TEXT.lostAtSessionEnd(1_234)).toMatch(
      /^1\u202f234 modifications en attente n’ont pas pu être envoyées : votre session a pris fin/,
    );
    expect(OFFLINE_TEXT.pending(1_000)).toBe('1\u202f000 modifications en attente');
  });
});
