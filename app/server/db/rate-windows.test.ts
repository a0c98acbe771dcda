// The fixed windows of rate_windows and the Retry-After of a refusal: a request whose clock was read just
// before another one started the window is told the window's length, never one second more (CI of stop 32:
// « expected 61 to be less than or equal to 60 » for eight concurrent requests of one API token).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tooManyAttempts } from '#server/domains/auth/throttle';
import { createTestDatabase, testEngines, type TestDatabase } from '#tests/helpers/db';
import { countInWindow, retryAfterSeconds } from './rate-windows';

const MINUTE = 60_000;

describe('retryAfterSeconds', () => {
  it('rounds up the rest of the window, at least 1 and at most the window', () => {
    const now = 1_000_000;
    expect(retryAfterSeconds(now + 59_001, now, MINUTE)).toBe(60);
    expect(retryAfterSeconds(now + 30_000, now, MINUTE)).toBe(30);
    expect(retryAfterSeconds(now + 1, now, MINUTE)).toBe(1);
    expect(retryAfterSeconds(now, now, MINUTE)).toBe(1);
    expect(retryAfterSeconds(now - 5, now, MINUTE)).toBe(1);
    // The window was started 5 ms after this request read its clock.
    expect(retryAfterSeconds(now + 5 + MINUTE, now, MINUTE)).toBe(60);
  });

  it('says the same of a log-in refused just before its window started: 15 minutes, not 16', () => {
    const now = 1_000_000;
    const window = 15 * MINUTE;
    const refusal = tooManyAttempts(new Date(now + 3 + window), window, now);
    expect(refusal.message).toBe('Trop de tentatives de connexion. Réessayez dans 15 minute(s).');
    expect(refusal.details).toEqual({ retryAfterSeconds: 900 });
  });
});

describe.each(await testEngines())('countInWindow on %s', (engine) => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase(engine);
  });
  afterAll(async () => tdb?.drop());

  const count = (key: string, at: number) =>
    tdb.db.transaction((tx) => countInWindow(tdb.db, tx, key, MINUTE, new Date(at)));

  it('counts within the window, starts again once it is over, and keeps the start a later clock gave it', async () => {
    const start = Date.UTC(2026, 10, 28, 9, 0, 0);
    expect(await count('essai', start)).toEqual({ count: 1, startedAt: new Date(start) });
    // A request whose clock was read 5 ms earlier is counted in the same window, whose start stays.
    const early = await count('essai', start - 5);
    expect(early).toEqual({ count: 2, startedAt: new Date(start) });
    expect(retryAfterSeconds(early.startedAt.getTime() + MINUTE, start - 5, MINUTE)).toBe(60);
    expect(await count('essai', start + MINUTE - 1)).toEqual({ count: 3, startedAt: new Date(start) });
    expect(await count('essai', start + MINUTE)).toEqual({ count: 1, startedAt: new Date(start + MINUTE) });
    expect(await count('autre', start)).toEqual({ count: 1, startedAt: new Date(start) });
  });
});
