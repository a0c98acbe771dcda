// Counted log-in refusals become one summary row per window (refusals.ts): two flushes at once (a full
// map, the hourly purge, the stop) must not write a window twice, and the refusal that finds the map full
// must not wait for thousands of rows.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { accessLogRows } from '#tests/helpers/journal';
import {
  backgroundRefusalFlush,
  countRefusal,
  flushLoginRefusals,
  REFUSAL_LIMITS,
  REFUSAL_WINDOW_MS,
} from './refusals';

describe.each(await testEngines())('log-in refusal summaries on %s', (engine) => {
  let t: TestApp;
  const kept = REFUSAL_LIMITS.addressesKept;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterEach(() => {
    REFUSAL_LIMITS.addressesKept = kept;
  });
  afterAll(async () => t?.close());

  const noFirstRow = async () => undefined;
  /** Summary rows (those with a count) per address. */
  const summaries = async (prefix: string) => {
    const rows = (await accessLogRows(t, 'echec_connexion')).filter(
      (r) => typeof r.details.refus === 'number' && (r.address ?? '').startsWith(prefix),
    );
    return rows.map((r) => `${r.address}:${String(r.details.refus)}`).sort();
  };

  it("writes each window's summary once when flushes run at once", async () => {
    const start = Date.now() - REFUSAL_WINDOW_MS;
    const addresses = ['192.0.2.1', '192.0.2.2', '192.0.2.3'];
    for (const address of addresses) {
      for (let i = 0; i < 3; i++)
        await countRefusal(t.ctx.journal.refusals, t.db, address, noFirstRow, start);
    }
    const later = Date.now() + 1;
    const written = await Promise.all([
      flushLoginRefusals(t.ctx.journal.refusals, t.db, later),
      flushLoginRefusals(t.ctx.journal.refusals, t.db, later),
      flushLoginRefusals(t.ctx.journal.refusals, t.db, later, true),
    ]);
    expect(written.reduce((a, b) => a + b, 0)).toBe(3);
    expect(await summaries('192.0.2.')).toEqual(['192.0.2.1:2', '192.0.2.2:2', '192.0.2.3:2']);
  });

  it("does not write a window twice when a refusal opens the address's next window during a flush", async () => {
    const start = Date.now() - REFUSAL_WINDOW_MS;
    for (const address of ['198.51.100.1', '198.51.100.2']) {
      for (let i = 0; i < 2; i++)
        await countRefusal(t.ctx.journal.refusals, t.db, address, noFirstRow, start);
    }
    const later = Date.now() + 1;
    const flushing = flushLoginRefusals(t.ctx.journal.refusals, t.db, later);
    // A refusal of the second address while the first one's summary is being written.
    await countRefusal(t.ctx.journal.refusals, t.db, '198.51.100.2', noFirstRow, later);
    await flushing;
    await flushLoginRefusals(t.ctx.journal.refusals, t.db, later + REFUSAL_WINDOW_MS, true);
    expect(await summaries('198.51.100.')).toEqual(['198.51.100.1:1', '198.51.100.2:1']);
  });

  it('answers the refusal that finds the map full without writing the summaries itself, then writes them in the background', async () => {
    REFUSAL_LIMITS.addressesKept = 40;
    const start = Date.now() - REFUSAL_WINDOW_MS;
    for (let n = 0; n < 40; n++) {
      for (let i = 0; i < 2; i++)
        await countRefusal(t.ctx.journal.refusals, t.db, `203.0.113.${n}`, noFirstRow, start);
    }
    const later = Date.now() + 1;
    await countRefusal(t.ctx.journal.refusals, t.db, '203.0.113.200', noFirstRow, later);
    // The request is answered before the forty rows are written.
    expect((await summaries('203.0.113.')).length).toBeLessThan(40);
    await backgroundRefusalFlush(t.ctx.journal.refusals);
    expect(await summaries('203.0.113.')).toHaveLength(40);
    // The map has room again: the next refusal of a new address gets its own window.
    await countRefusal(t.ctx.journal.refusals, t.db, '203.0.113.201', noFirstRow, later);
    await countRefusal(t.ctx.journal.refusals, t.db, '203.0.113.201', noFirstRow, later);
    await flushLoginRefusals(t.ctx.journal.refusals, t.db, later + REFUSAL_WINDOW_MS, true);
    expect(await summaries('203.0.113.201')).toEqual(['203.0.113.201:1']);
  });
});
