// Whether writes succeed, for the health check (README « Health and metrics »): a full disk, an I/O error or
// a read-only database makes every write fail while reads still answer, so a read alone would report « ok ».
// Every transaction (and maintenance statement) that fails tells this object why; a failure for one of those
// causes marks the writes as failing. Other failures (a constraint, a domain refusal, a dropped
// connection) say nothing about the disk and change nothing.
/** Error codes that mean « no write can succeed here now », SQLite's and PostgreSQL's SQLSTATE. */
const CAUSES: Array<[test: (code: string) => boolean, cause: WriteFailure]> = [
  [(c) => c === 'SQLITE_FULL' || c === 'ENOSPC' || c === '53100', 'disque plein'],
  [(c) => c.startsWith('SQLITE_IOERR') || c === 'EIO' || c === '58030', 'erreur d’entrée-sortie'],
  [(c) => c.startsWith('SQLITE_READONLY') || c === 'EROFS' || c === '25006', 'base en lecture seule'],
];

export type WriteFailure = 'disque plein' | 'erreur d’entrée-sortie' | 'base en lecture seule';

/** The cause of a failed write when it is one that every write would meet, else null (drizzle wraps errors). */
export function writeFailureOf(error: unknown): WriteFailure | null {
  for (
    let e = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    for (const [test, cause] of CAUSES) if (test(code)) return cause;
  }
  return null;
}

export interface WriteState {
  /** The cause of the last failed write, while writes are held as failing; null otherwise. */
  failing: WriteFailure | null;
}

/** How often the health check may write a probe: while writes fail, and otherwise (ms). */
export const PROBE_EVERY_MS = { failing: 5_000, ok: 60_000 } as const;
/** A probe that commits clears the failure only once the application's writes stopped failing this long. */
export const FAILURE_HOLD_MS = 20_000;

/**
 * A write that fails for one of the causes above marks the writes as failing; a probe (a small write that
 * commits) clears it, once no write has failed for FAILURE_HOLD_MS. A success of the application's own is
 * no proof (on a full disk, a transaction that only reads still commits), and a small probe may fit where a
 * report does not (a page with room left, WAL space already allocated): the hold keeps the state « failing »
 * while real writes keep failing.
 */
export class WriteHealth {
  private failing: WriteFailure | null = null;
  private failedAt = 0;
  private probedAt = -Infinity;
  private probing: Promise<void> | null = null;

  state(): WriteState {
    return { failing: this.failing };
  }

  /** Runs a write of the application, noting a failure that every write would meet. */
  async track<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      this.failed(error, Date.now());
      throw error;
    }
  }

  private failed(error: unknown, now: number) {
    const cause = writeFailureOf(error);
    if (!cause) return;
    this.failing = cause;
    this.failedAt = now;
  }

  /**
   * Runs `write` (a small write that commits) when a probe is due, one at a time: while writes fail, every
   * PROBE_EVERY_MS.failing; otherwise every PROBE_EVERY_MS.ok, so a full disk is seen even when nobody
   * writes. Resolves once the probe in progress, if any, has ended. A probe that fails for another cause
   * changes nothing.
   */
  async probe(write: () => Promise<unknown>, now = Date.now()): Promise<void> {
    const every = this.failing ? PROBE_EVERY_MS.failing : PROBE_EVERY_MS.ok;
    if (!this.probing && now - this.probedAt >= every) {
      this.probedAt = now;
      this.probing = write().then(
        () => {
          if (this.failing && now - this.failedAt >= FAILURE_HOLD_MS) this.failing = null;
        },
        (error: unknown) => this.failed(error, now),
      );
      void this.probing.finally(() => {
        this.probing = null;
      });
    }
    await this.probing;
  }
}
