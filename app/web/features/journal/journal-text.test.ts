import { describe, expect, it } from 'vitest';
import { isSignalementCode } from '#shared/signalement-code';
import { ALERTS_TEXT, JOURNAL_TEXT } from './journal-text';

const NNBSP = '\u202f';

describe('the journal’s words', () => {
  it('shows a report code of the real shape in the filter’s placeholder', () => {
    const example = JOURNAL_TEXT.signalementPlaceholder.replace(/^Ex\. : /, '');
    expect(isSignalementCode(example)).toBe(true);
  });

  it('writes its counts the fr-FR way', () => {
    expect(JOURNAL_TEXT.total(12_345)).toBe(`12${NNBSP}345 entrée(s) au total`);
    expect(JOURNAL_TEXT.exported(1_000)).toBe(`Export réussi ! 1${NNBSP}000 entrée(s) exportée(s)`);
    expect(ALERTS_TEXT.intro(2_500)).toBe(`2${NNBSP}500 lectures inhabituelles demandent votre attention.`);
  });
});
