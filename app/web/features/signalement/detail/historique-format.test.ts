import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { actionLabel, formatHistoryValue, historyLines } from './historique-format';

const originalTz = process.env.TZ;
beforeEach(() => {
  process.env.TZ = 'Indian/Antananarivo';
});
afterEach(() => {
  // Unset again when it was: assigning undefined would set the text « undefined » (read as UTC).
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

describe('history entries', () => {
  it('names actions in French and keeps unknown ones', () => {
    expect(actionLabel('auteur.suppression')).toBe('Auteur supprimé');
    expect(actionLabel('autre.chose')).toBe('autre.chose');
  });

  it('formats values as the screens show them', () => {
    expect(formatHistoryValue(true)).toBe('Oui');
    expect(formatHistoryValue(null)).toBe('—');
    expect(formatHistoryValue([])).toBe('—');
    expect(formatHistoryValue(['Corruption', 'Fraude'])).toBe('Corruption, Fraude');
    expect(formatHistoryValue('2024-03-05T00:00:00.000Z')).toBe('05/03/2024');
    expect(formatHistoryValue('2024-03-05T09:30:00.000Z')).toBe('05/03/2024 12:30');
  });

  it('lists changed fields with old and new values, without the creation dump or the row code', () => {
    expect(historyLines('creation', { description: { from: null, to: 'x' } })).toEqual([]);
    expect(
      historyLines('auteur.modification', {
        code: { from: 'A1', to: 'A1' },
        nomPrenom: { from: 'Rabe', to: 'Rabe Jean' },
      }),
    ).toEqual([{ field: 'nomPrenom', label: 'Nom', from: 'Rabe', to: 'Rabe Jean' }]);
  });
});
