import { describe, expect, it } from 'vitest';
import { recoveryCodesText } from './recovery-codes-file';

describe('the recovery codes file', () => {
  it('starts with a French header naming the account and the day, then lists one code per line', () => {
    const text = recoveryCodesText(
      ['AAAA-BBBB-CCCC-DDDD', 'EEEE-FFFF-GGGG-HHHH'],
      'a@example.mg',
      '26/11/2026',
    );
    expect(text.split('\n')).toEqual([
      'Signalements : codes de secours de la double authentification',
      'Compte : a@example.mg',
      'Date : 26/11/2026',
      "Chaque code ne sert qu'une fois. Conservez ce fichier en lieu sûr.",
      '',
      'AAAA-BBBB-CCCC-DDDD',
      'EEEE-FFFF-GGGG-HHHH',
      '',
    ]);
  });
});
