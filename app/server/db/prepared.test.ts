// The names of prepared statements: PostgreSQL compares them on their first 63 bytes only, so a longer
// name could collide with another statement's; every name is refused at its first use beyond that.
import { describe, expect, it } from 'vitest';
import { statementName } from './prepared';

describe('prepared statement names', () => {
  it('prefixes a name of lowercase letters and underscores', () => {
    expect(statementName('list_page_and_total_of_first_page_echeance_desc')).toBe(
      'signalements_list_page_and_total_of_first_page_echeance_desc',
    );
  });

  it('refuses other characters and names over 63 bytes with their prefix', () => {
    expect(() => statementName('list-page')).toThrow('not allowed');
    expect(() => statementName('Page')).toThrow('not allowed');
    expect(statementName('a'.repeat(50))).toHaveLength(63);
    expect(() => statementName('a'.repeat(51))).toThrow('too long');
  });
});
