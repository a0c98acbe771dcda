// The names of prepared statements: PostgreSQL compares them on their first 63 bytes only, so a longer
// name could collide with another statement's; every name is refused at its first use beyond that.
import { describe, expect, it } from 'vitest';
import { ORDER_NAMES } from '#server/domains/signalements/list-page';
import { statementName } from './prepared';

describe('prepared statement names', () => {
  it('prefixes a name of lowercase letters and underscores', () => {
    expect(statementName('list_page_and_total_of_first_page_echeance_desc')).toBe(
      'signalements_list_page_and_total_of_first_page_echeance_desc',
    );
  });

  it('takes every name of the first pages’ statements (list-page.ts, list-row.ts), whatever their order', () => {
    const prefixes = [
      'list_page_and_total_of_',
      'list_page_of_',
      'list_rows_of_',
      'subjects_of_',
      'assignees_of_',
    ];
    for (const order of Object.values(ORDER_NAMES))
      for (const dir of ['asc', 'desc'])
        for (const prefix of prefixes)
          expect(() => statementName(`${prefix}first_page_${order}_${dir}`)).not.toThrow();
  });

  it('refuses other characters and names over 63 bytes with their prefix', () => {
    expect(() => statementName('list-page')).toThrow('not allowed');
    expect(() => statementName('Page')).toThrow('not allowed');
    expect(statementName('a'.repeat(50))).toHaveLength(63);
    expect(() => statementName('a'.repeat(51))).toThrow('too long');
  });
});
