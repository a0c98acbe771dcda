// Failing writes for the health check (README « Health and metrics »): which errors mean « no write can
// succeed », and when a probe may clear the state (never while the application's writes keep failing).
import { describe, expect, it } from 'vitest';
import { FAILURE_HOLD_MS, PROBE_EVERY_MS, WriteHealth, writeFailureOf } from './write-health';

const coded = (code: string) => Object.assign(new Error('échec'), { code });
/** As Drizzle throws it: its own error, the driver's as the cause. */
const wrapped = (code: string) => new Error('Failed query: insert …', { cause: coded(code) });

describe('write health', () => {
  it('names the causes every write would meet, through a wrapping error, and nothing else', () => {
    expect(writeFailureOf(coded('SQLITE_FULL'))).toBe('disque plein');
    expect(writeFailureOf(wrapped('53100'))).toBe('disque plein');
    expect(writeFailureOf(wrapped('ENOSPC'))).toBe('disque plein');
    expect(writeFailureOf(wrapped('SQLITE_IOERR_WRITE'))).toBe('erreur d’entrée-sortie');
    expect(writeFailureOf(wrapped('SQLITE_READONLY'))).toBe('base en lecture seule');
    expect(writeFailureOf(wrapped('25006'))).toBe('base en lecture seule');
    for (const code of ['SQLITE_CONSTRAINT_UNIQUE', '23505', 'SQLITE_BUSY', '57P01', 'ECONNRESET'])
      expect(writeFailureOf(wrapped(code))).toBeNull();
    expect(writeFailureOf(new Error('sans code'))).toBeNull();
  });

  it('is failing from a failed write until a probe commits, once writes stopped failing for a while', async () => {
    const w = new WriteHealth();
    const ok = async () => undefined;
    await w.probe(ok, 0);
    await expect(w.track(() => Promise.reject(wrapped('SQLITE_FULL')))).rejects.toThrow('Failed query');
    // A refusal of another kind says nothing about the disk.
    await expect(w.track(() => Promise.reject(wrapped('SQLITE_CONSTRAINT_UNIQUE')))).rejects.toThrow();
    expect(w.state().failing).toBe('disque plein');
    // A success of the application's own is no proof (a transaction that only reads commits on a full disk).
    await w.track(ok);
    expect(w.state().failing).toBe('disque plein');

    const failedAt = Date.now();
    let probes = 0;
    const probe = async () => {
      probes++;
    };
    // Probes run every PROBE_EVERY_MS.failing while failing; one that commits within the hold clears nothing.
    await w.probe(probe, failedAt + PROBE_EVERY_MS.failing);
    await w.probe(probe, failedAt + PROBE_EVERY_MS.failing + 1);
    expect(probes).toBe(1);
    expect(w.state().failing).toBe('disque plein');
    // A probe that fails keeps it failing.
    await w.probe(() => Promise.reject(coded('ENOSPC')), failedAt + FAILURE_HOLD_MS);
    const reFailedAt = failedAt + FAILURE_HOLD_MS;
    await w.probe(probe, reFailedAt + FAILURE_HOLD_MS - 1);
    expect(w.state().failing).toBe('disque plein');
    await w.probe(probe, reFailedAt + FAILURE_HOLD_MS + PROBE_EVERY_MS.failing);
    expect(w.state().failing).toBeNull();
    // Healthy, a probe is due only every PROBE_EVERY_MS.ok.
    const before = probes;
    await w.probe(probe, reFailedAt + FAILURE_HOLD_MS + PROBE_EVERY_MS.failing * 2);
    expect(probes).toBe(before);
  });
});
