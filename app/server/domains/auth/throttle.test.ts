import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testEngines, type TestDatabase } from '#tests/helpers/db';
import {
  MAX_ATTEMPTS_PER_ACCOUNT,
  MAX_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS,
  MAX_ATTEMPTS_PER_ADDRESS,
  releaseAttempt,
  reserveAttempt,
} from './throttle';

describe.each(await testEngines())('log-in attempt reservation on %s', (engine) => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase(engine);
  });
  afterAll(async () => tdb?.drop());

  const settle = (tries: Array<Promise<unknown>>) =>
    Promise.allSettled(tries).then((all) => ({
      granted: all.filter((r) => r.status === 'fulfilled').length,
      refused: all.filter((r) => r.status === 'rejected' && /Trop de tentatives/.test(String(r.reason)))
        .length,
    }));

  it('grants exactly the limit out of 100 simultaneous reservations, however they interleave', async () => {
    const { granted, refused } = await settle(
      Array.from({ length: 100 }, () => reserveAttempt(tdb.db, 'cible@example.mg', '10.0.0.1')),
    );
    expect(granted).toBe(MAX_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS);
    expect(refused).toBe(100 - MAX_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS);
  });

  it('counts nothing for a refused reservation, so guesses blocked on one address do not lock the account', async () => {
    for (let i = 0; i < 50; i++)
      await reserveAttempt(tdb.db, 'cible@example.mg', '10.0.0.1').catch(() => undefined);
    // Only the 5 granted above count for the account: the owner, elsewhere, still has room.
    const { granted } = await settle(
      Array.from({ length: MAX_ATTEMPTS_PER_ACCOUNT - MAX_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS }, (_, i) =>
        reserveAttempt(tdb.db, 'cible@example.mg', `10.1.0.${i}`),
      ),
    );
    expect(granted).toBe(MAX_ATTEMPTS_PER_ACCOUNT - MAX_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS);
    await expect(reserveAttempt(tdb.db, 'cible@example.mg', '10.2.0.1')).rejects.toThrow(
      'Trop de tentatives',
    );
  });

  it('holds the per-address limit across accounts under concurrency', async () => {
    const { granted } = await settle(
      Array.from({ length: 60 }, (_, i) => reserveAttempt(tdb.db, `compte${i}@example.mg`, '10.3.0.1')),
    );
    expect(granted).toBe(MAX_ATTEMPTS_PER_ADDRESS);
  });

  it('gives back a successful attempt and forgets that account-address pair; an unchecked one only gives back', async () => {
    for (let i = 0; i < MAX_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS; i++)
      await reserveAttempt(tdb.db, 'a@example.mg', '10.4.0.1');
    await expect(reserveAttempt(tdb.db, 'a@example.mg', '10.4.0.1')).rejects.toThrow();
    await releaseAttempt(tdb.db, 'a@example.mg', '10.4.0.1', 'unchecked');
    await reserveAttempt(tdb.db, 'a@example.mg', '10.4.0.1');
    await expect(reserveAttempt(tdb.db, 'a@example.mg', '10.4.0.1')).rejects.toThrow();
    await releaseAttempt(tdb.db, 'a@example.mg', '10.4.0.1', 'success');
    for (let i = 0; i < MAX_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS; i++)
      await reserveAttempt(tdb.db, 'a@example.mg', '10.4.0.1');
  });
});
