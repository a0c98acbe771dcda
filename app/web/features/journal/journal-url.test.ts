import { describe, expect, it } from 'vitest';
import { JOURNAL_MESSAGES } from '#shared/schemas/journal';
import {
  filtersQuery,
  journalFormSchema,
  journalHref,
  journalSearchString,
  parseJournalSearch,
  toFormValues,
} from './journal-url';

describe('parseJournalSearch', () => {
  it('reads the filters and the page of the alert link and of a filtered list', () => {
    expect(parseJournalSearch('?utilisateur=USR7')).toEqual({ page: 1, filters: { utilisateur: 'USR7' } });
    expect(
      parseJournalSearch('utilisateur=USR7&kind=export&du=2025-03-01&au=2025-03-31&signalement=SIG-1&page=3'),
    ).toEqual({
      page: 3,
      filters: {
        utilisateur: 'USR7',
        kind: 'export',
        du: '2025-03-01',
        au: '2025-03-31',
        signalement: 'SIG-1',
      },
    });
  });

  it('drops what the shared schema refuses, keeping the rest', () => {
    expect(parseJournalSearch('kind=inconnu&utilisateur=USR1').filters).toEqual({ utilisateur: 'USR1' });
    expect(parseJournalSearch('du=2025-02-30&au=2025-03-01').filters).toEqual({ au: '2025-03-01' });
    // An end before the start: the end goes.
    expect(parseJournalSearch('du=2025-03-10&au=2025-03-01').filters).toEqual({ du: '2025-03-10' });
  });

  it('treats empty values as no filter and a bad page as the first', () => {
    expect(parseJournalSearch('utilisateur=&kind=&page=abc')).toEqual({ page: 1, filters: {} });
    expect(parseJournalSearch('page=0').page).toBe(1);
    expect(parseJournalSearch('page=2.5').page).toBe(1);
  });
});

describe('query strings', () => {
  it('leaves out page 1 and empty filters, so the plain URL stays bare', () => {
    expect(journalSearchString({ page: 1, filters: {} })).toBe('');
    expect(journalSearchString({ page: 1, filters: { utilisateur: ' ', kind: undefined } })).toBe('');
    expect(journalSearchString({ page: 2, filters: { kind: 'connexion' } })).toBe('kind=connexion&page=2');
  });

  it('gives the export the same filters without the page', () => {
    expect(filtersQuery({ utilisateur: 'USR1', du: '2025-03-01' })).toBe('utilisateur=USR1&du=2025-03-01');
  });

  it('round-trips through the address bar', () => {
    const state = {
      page: 4,
      filters: { utilisateur: 'USR1', signalement: 'A B&C', kind: 'droits' as const },
    };
    expect(parseJournalSearch(journalSearchString(state))).toEqual(state);
  });

  it("builds the alerts' link to the user's entries", () => {
    expect(journalHref({ utilisateur: 'USR9' })).toBe('/journal-acces?utilisateur=USR9');
    expect(journalHref({})).toBe('/journal-acces');
  });
});

describe('journalFormSchema', () => {
  const empty = toFormValues({});

  it('turns cleared fields into no filter', () => {
    expect(journalFormSchema.parse({ ...empty, signalement: '  ' })).toEqual({});
    expect(journalFormSchema.parse({ ...empty, kind: 'export', du: '2025-03-01' })).toEqual({
      kind: 'export',
      du: '2025-03-01',
    });
  });

  it("refuses an end before the start with the shared schema's French message, under 'Au'", () => {
    const result = journalFormSchema.safeParse({ ...empty, du: '2025-03-10', au: '2025-03-01' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['au'], message: JOURNAL_MESSAGES.periodInverted });
  });
});
