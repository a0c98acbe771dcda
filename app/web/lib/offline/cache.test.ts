// What the read cache keeps of an answer (docs/decisions/0048-offline-store.md): the allow-list only, and the
// partner picker's first page without the partners' e-mail and phone.
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { OPTION_LIST_SIZE } from '#shared/constants';
import { keptData, persistCurrent, persistQueries, restoreQueries } from './cache';
import { memoryBackend, OfflineStore } from './store';

const SESSION_KEY = Buffer.alloc(32, 7).toString('base64url');
const LATER = new Date(Date.now() + 3_600_000).toISOString();
const SESSION = [['auth', 'session'], { type: 'query' }];
const JOURNAL = [['journal', 'list'], { type: 'query' }];

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

describe('persistCurrent', () => {
  it('keeps an allow-listed answer that arrived before the store could be used, and only that', async () => {
    const backend = memoryBackend();
    const store = new OfflineStore(backend);
    const client = new QueryClient();
    persistQueries(client, store);
    // The session's answer arrives while the store is still closed (no key yet): nothing can be written.
    client.setQueryData(SESSION, { code: 'USR-1' });
    client.setQueryData(JOURNAL, { items: [{ nom: 'R.' }] });
    await Promise.resolve();
    expect(backend.areas.get('cache')?.size ?? 0).toBe(0);

    await store.adopt(SESSION_KEY, LATER);
    await persistCurrent(client, store);
    expect(await store.ids('cache')).toEqual([expect.stringMatching(/^auth\.session\|[0-9a-f]{64}$/)]);

    // A reopen without a network puts it back.
    const reopened = new OfflineStore(backend);
    expect(await reopened.open()).toBe(true);
    const next = new QueryClient();
    await restoreQueries(next, reopened);
    expect(next.getQueryData(SESSION)).toEqual({ code: 'USR-1' });
    expect(next.getQueryData(JOURNAL)).toBeUndefined();
  });

  it('writes nothing while the store has no key', async () => {
    const backend = memoryBackend();
    const client = new QueryClient();
    client.setQueryData(SESSION, { code: 'USR-1' });
    await persistCurrent(client, new OfflineStore(backend));
    expect(backend.areas.get('cache')?.size ?? 0).toBe(0);
  });
});
