import { describe, expect, it } from 'vitest';
import { CODE_ALPHABET, generateCode, generateSignalementCode, isSignalementCode } from './code';
import { buildSearchText, normalizeSearch } from './search-text';

describe('report codes', () => {
  it('have the form SIG-XXXX-XXXX in Crockford base32', () => {
    for (let i = 0; i < 1000; i++) {
      const code = generateSignalementCode();
      expect(code).toMatch(/^SIG-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
      expect(isSignalementCode(code)).toBe(true);
    }
  });

  it('use an alphabet of 32 characters without I, L, O or U', () => {
    expect(CODE_ALPHABET).toHaveLength(32);
    expect(new Set(CODE_ALPHABET).size).toBe(32);
    expect(CODE_ALPHABET).not.toMatch(/[ILOU]/);
  });

  it('draw every character at every position (no stuck bits)', () => {
    const seen = Array.from({ length: 8 }, () => new Set<string>());
    for (let i = 0; i < 10_000; i++) {
      const body = generateSignalementCode().slice(4).replace('-', '');
      [...body].forEach((c, position) => seen[position]!.add(c));
    }
    for (const chars of seen) expect(chars.size).toBe(32);
  });

  it('do not collide over 10,000 draws', () => {
    const codes = new Set(Array.from({ length: 10_000 }, () => generateSignalementCode()));
    expect(codes.size).toBe(10_000);
  });

  it('rejects what is not a canonical report code', () => {
    for (const bad of [
      'SIG-ABCD-EFG',
      'SIG-ABCD-EFGHJ',
      'sig-abcd-efgh',
      'SIG-ABCD-EFGI',
      'SIG-0O00-0000',
      'SIG-ABCDEFGH',
      'AUT-ABCD-EFGH',
      ' SIG-ABCD-EFGH',
      'SIG-ABCD-EFGH\n',
    ]) {
      expect(isSignalementCode(bad), bad).toBe(false);
    }
    expect(isSignalementCode('SIG-0123-YZ9A')).toBe(true);
  });

  it('prefix child codes with their own prefix', () => {
    expect(generateCode('AUT')).toMatch(/^AUT-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(generateCode('USR')).toMatch(/^USR-/);
    expect(isSignalementCode(generateCode('SRC'))).toBe(false);
  });
});

describe('search normalisation', () => {
  it('lower-cases and strips accents', () => {
    expect(normalizeSearch('Détournement À')).toBe('detournement a');
    expect(normalizeSearch('ÉLEVÉ Clôturé Amoron’i Mania')).toBe("eleve cloture amoron'i mania");
  });

  it('folds ligatures and collapses white space', () => {
    expect(normalizeSearch('  Main   d’Œuvre\u202f10\n000 ')).toBe("main d'oeuvre 10 000");
  });

  it('builds searchText from the non-blank parts only', () => {
    expect(buildSearchText(['SIG-AB12-CD34', null, undefined, '  ', 'Région Analamanga'])).toBe(
      'sig-ab12-cd34 region analamanga',
    );
  });
});
