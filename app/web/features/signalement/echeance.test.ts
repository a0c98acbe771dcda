import { describe, expect, it } from 'vitest';
import { echeanceSentence, echeanceShort, echeanceState, formatDay } from './echeance';

describe('deadline texts', () => {
  it('reads days left, the due day itself and days overdue in calendar days', () => {
    expect(echeanceState('2026-12-07', '2026-12-04')).toEqual({ kind: 'left', days: 3 });
    expect(echeanceState('2026-12-07', '2026-12-07')).toEqual({ kind: 'today' });
    expect(echeanceState('2026-12-07', '2026-12-09')).toEqual({ kind: 'overdue', days: 2 });
    expect(echeanceState(null, '2026-12-09')).toEqual({ kind: 'none' });
  });

  it('writes clear French, singular and plural', () => {
    expect(echeanceSentence({ kind: 'overdue', days: 2 })).toBe('En retard de 2 jours');
    expect(echeanceSentence({ kind: 'overdue', days: 1 })).toBe('En retard de 1 jour');
    expect(echeanceSentence({ kind: 'left', days: 3 })).toBe('J-3 : 3 jours restants');
    expect(echeanceSentence({ kind: 'left', days: 1 })).toBe('J-1 : 1 jour restant');
    expect(echeanceSentence({ kind: 'today' })).toBe("Échéance aujourd'hui");
    expect(echeanceSentence({ kind: 'none' })).toBe('Aucune échéance');
    expect(echeanceShort({ kind: 'left', days: 3 })).toBe('J-3');
    expect(echeanceShort({ kind: 'overdue', days: 4 })).toBe('Retard : 4 jours');
    expect(formatDay('2026-12-07')).toBe('07/12/2026');
  });
});
