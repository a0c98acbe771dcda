// The public look-up (a report's summary by its code) is the one door that reads data without a
// session. Each call is counted before the look-up, per client address and over all addresses, in
// one synchronous step (no await between reading and writing a counter), so batches and concurrent
// requests cannot slip past. The counters live in the process: see docs/decisions/0015-security-model.md.
import { DomainError, MESSAGES } from '../errors';

export const PUBLIC_LOOKUP_WINDOW_MS = 60_000;
export const PUBLIC_LOOKUPS_PER_ADDRESS = 30;
export const PUBLIC_LOOKUPS_GLOBAL = 600;

interface Window {
  startedAt: number;
  count: number;
}

function take(window: Window | undefined, now: number): Window {
  if (!window || now - window.startedAt >= PUBLIC_LOOKUP_WINDOW_MS) return { startedAt: now, count: 1 };
  window.count += 1;
  return window;
}

export class PublicLookupLimiter {
  private readonly perAddress = new Map<string, Window>();
  private global: Window | undefined;

  constructor(
    private readonly perAddressMax = PUBLIC_LOOKUPS_PER_ADDRESS,
    private readonly globalMax = PUBLIC_LOOKUPS_GLOBAL,
  ) {}

  /** Counts one public look-up; throws 429 (with Retry-After) over the per-address or global limit. */
  take(ip: string, now = Date.now()): void {
    if (this.perAddress.size > 100_000) {
      for (const [key, w] of this.perAddress) {
        if (now - w.startedAt >= PUBLIC_LOOKUP_WINDOW_MS) this.perAddress.delete(key);
      }
    }
    const mine = take(this.perAddress.get(ip), now);
    this.perAddress.set(ip, mine);
    this.global = take(this.global, now);
    const over = mine.count > this.perAddressMax ? mine : this.global.count > this.globalMax ? this.global : null;
    if (over) {
      const retryAfterSeconds = Math.max(1, Math.ceil((over.startedAt + PUBLIC_LOOKUP_WINDOW_MS - now) / 1000));
      throw new DomainError('too_many_requests', MESSAGES.tooManyRequests, { retryAfterSeconds });
    }
  }
}
