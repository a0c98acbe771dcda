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

describe('the recent limits and restoreQueries', () => {
  const list = (page: number) => [['signalements', 'list'], { input: { page }, type: 'query' }];
  const detail = (code: string) => [['signalements', 'get'], { input: { code }, type: 'query' }];
  const codeOf = (i: number) => `SIG-TEST-${String(i).padStart(4, '0')}`;
  // Dated after any earlier restore of this file (an answer dated before one counts as restored, not kept).
  const base = Date.now() + 60_000;

  it('keeps the last 10 lists and the last 20 details, and puts them back dated as fetched', async () => {
    const backend = memoryBackend();
    const store = new OfflineStore(backend);
    await store.adopt(SESSION_KEY, LATER);
    const client = new QueryClient();
    // Fetched in this order, oldest first; a later page of lists and a later report each time.
    for (let i = 0; i < 12; i++) {
      client.setQueryData(list(i + 1), { items: [{ code: codeOf(i) }], total: 12 }, { updatedAt: base + i });
    }
    for (let i = 0; i < 22; i++) {
      client.setQueryData(
        detail(codeOf(i)),
        { code: codeOf(i), description: `Faits ${i}` },
        {
          updatedAt: base + 100 + i,
        },
      );
    }
    await persistCurrent(client, store);

    const ids = await store.ids('cache');
    expect(ids.filter((id) => id.startsWith('signalements.list|'))).toHaveLength(10);
    expect(ids.filter((id) => id.startsWith('signalements.get|'))).toHaveLength(20);

    // A reopen without a network: the 10 most recent lists and 20 most recent details come back.
    const reopened = new OfflineStore(backend);
    expect(await reopened.open()).toBe(true);
    const next = new QueryClient();
    await restoreQueries(next, reopened);
    for (const page of [1, 2]) expect(next.getQueryData(list(page))).toBeUndefined();
    for (let i = 2; i < 12; i++) {
      expect(next.getQueryData(list(i + 1))).toEqual({ items: [{ code: codeOf(i) }], total: 12 });
      expect(next.getQueryState(list(i + 1))?.dataUpdatedAt).toBe(base + i);
    }
    for (const i of [0, 1]) expect(next.getQueryData(detail(codeOf(i)))).toBeUndefined();
    for (let i = 2; i < 22; i++) {
      expect(next.getQueryData(detail(codeOf(i)))).toEqual({ code: codeOf(i), description: `Faits ${i}` });
      expect(next.getQueryState(detail(codeOf(i)))?.dataUpdatedAt).toBe(base + 100 + i);
    }
  });

  it('prunes by the date of the answer, not by the order of the writes', async () => {
    const store = new OfflineStore(memoryBackend());
    await store.adopt(SESSION_KEY, LATER);
    const client = new QueryClient();
    // The newest list is written first: it stays when ten older ones follow.
    client.setQueryData(list(99), { items: [], total: 0 }, { updatedAt: base + 1_000 });
    for (let i = 0; i < 10; i++)
      client.setQueryData(list(i + 1), { items: [], total: 0 }, { updatedAt: base + i });
    await persistCurrent(client, store);
    const next = new QueryClient();
    await restoreQueries(next, store);
    expect(next.getQueryData(list(99))).toEqual({ items: [], total: 0 });
    expect(next.getQueryData(list(1))).toBeUndefined();
    expect(next.getQueryData(list(10))).toBeDefined();
  });

  it('never replaces an answer already in the query cache', async () => {
    const store = new OfflineStore(memoryBackend());
    await store.adopt(SESSION_KEY, LATER);
    const client = new QueryClient();
    client.setQueryData(
      detail('SIG-KEPT'),
      { code: 'SIG-KEPT', description: 'ancienne' },
      { updatedAt: base },
    );
    client.setQueryData(list(1), { items: [{ code: 'SIG-KEPT' }], total: 1 }, { updatedAt: base });
    await persistCurrent(client, store);

    const next = new QueryClient();
    next.setQueryData(detail('SIG-KEPT'), { code: 'SIG-KEPT', description: 'fraîche' });
    await restoreQueries(next, store);
    expect(next.getQueryData(detail('SIG-KEPT'))).toEqual({ code: 'SIG-KEPT', description: 'fraîche' });
    expect(next.getQueryData(list(1))).toEqual({ items: [{ code: 'SIG-KEPT' }], total: 1 });
  });
});
