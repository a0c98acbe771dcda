// What the read cache keeps of an answer (docs/decisions/0048-offline-store.md): the allow-list only, and the
// partner picker's first page without the partners' e-mail and phone.
import { describe, expect, it } from 'vitest';
import { OPTION_LIST_SIZE } from '#shared/constants';
import { keptData } from './cache';

const partners = {
  items: [
    {
      code: 'PRT-1',
      designation: 'Bureau Indépendant Anti-Corruption',
      email: 'contact@bianco.mg',
      phoneNumber: '+261 20 22 000 00',
      color: '#123456',
    },
  ],
  total: 1,
};
const key = (input: Record<string, unknown>) => [['partenaires', 'list'], { input, type: 'query' }];

describe('keptData', () => {
  it("keeps the partner picker's page without e-mail or phone", () => {
    const kept = keptData('partenaires.list', key({ page: 1, itemsPerPage: OPTION_LIST_SIZE }), partners);
    expect(kept).toEqual({
      items: [
        {
          code: 'PRT-1',
          designation: 'Bureau Indépendant Anti-Corruption',
          email: null,
          phoneNumber: null,
          color: '#123456',
        },
      ],
      total: 1,
    });
    expect(JSON.stringify(kept)).not.toContain('bianco.mg');
  });

  it('keeps no other page of partners (a search, the administration screen)', () => {
    expect(
      keptData('partenaires.list', key({ page: 1, itemsPerPage: OPTION_LIST_SIZE, search: 'bia' }), partners),
    ).toBeUndefined();
    expect(
      keptData('partenaires.list', key({ page: 2, itemsPerPage: OPTION_LIST_SIZE }), partners),
    ).toBeUndefined();
    expect(keptData('partenaires.list', key({ page: 1, itemsPerPage: 10 }), partners)).toBeUndefined();
  });

  it('keeps a listed procedure as it is, and nothing of an unlisted one (people, journal)', () => {
    const report = { code: 'SIG-7K2M-Q9ZD', description: 'x' };
    expect(keptData('signalements.get', [['signalements', 'get']], report)).toBe(report);
    expect(keptData('personnes.victimes', [['personnes', 'victimes']], [{ nom: 'R.' }])).toBeUndefined();
    expect(keptData('journal.list', [['journal', 'list']], { items: [] })).toBeUndefined();
  });
});
