// The public look-up (a report's summary by its code) is the one door that reads data without a
// session. Each call is counted before the look-up, per client address, per network and over all
// addresses. The counters live in the database (table rate_windows), so that several server processes on
// one PostgreSQL share them: each count is one atomic upsert that returns the new count, so
// batches and concurrent requests, on one process or several, cannot slip past. See
// docs/decisions/0015-security-model.md.
//
// A distributed flood (decision 0015, "The public summary"): 20 addresses at their 30 a minute used to fill
// the 600 shared by all and close the page to everyone. The ceiling over all addresses is now two: the first
// look-ups of each network (/24 in IPv4, /64 in IPv6) in a minute count against one, the rest against the
// other. Flooders fill the second; a well-behaved address, whose network has asked little, is served from the
// first, which a flood fills only with FIRST_PER_NETWORK look-ups per network it holds. A network also has
// its own share, so one /24 full of addresses cannot take the whole second ceiling either.
//
// Addresses and networks are stored as a keyed hash (the data key's blind index), not in clear: the table
// is personal data of whoever looked a summary up, and it goes into backups. Old windows are deleted by
// the hourly purge (mail/retention.ts), not by each look-up. Once this process has refused an address, a
// network or a ceiling, it refuses again without counting it until that window ends, so a flood costs the
// database at most two writes per look-up, until its address or network is refused (then none).
import { sql } from 'drizzle-orm';
import { cipherOf, type WithCipher } from '../context';
import type { Database } from '../db/client';
import { countInWindow, retryAfterSeconds } from '../db/rate-windows';
import { GUESSES_MAIL_INTERVAL_MS, GUESSES_MAIL_KEY_PREFIX } from '../domains/auth/two-factor-guesses';
import { DomainError, MESSAGES } from '../errors';
import { networkOf } from './network';

export { networkOf } from './network';

export const PUBLIC_LOOKUP_WINDOW_MS = 60_000;
export const PUBLIC_LOOKUPS_PER_ADDRESS = 30;
/** One /24 or /64: four addresses at their limit; a neighbour of a flooder shares its network's fate. */
export const PUBLIC_LOOKUPS_PER_NETWORK = 120;
/** Each ceiling over all addresses (the first look-ups of each network, and the others). */
export const PUBLIC_LOOKUPS_GLOBAL = 600;
/** A network's look-ups of a minute counted against the ceiling kept for the networks that ask little. */
export const PUBLIC_LOOKUPS_FIRST_PER_NETWORK = 10;

const MAIL_WINDOWS = `${GUESSES_MAIL_KEY_PREFIX}%`;

/** Entries of the in-process refusals kept at most (expired ones go first). */
const REFUSALS_KEPT = 10_000;

/** The two ceilings over all addresses (keys of rate_windows; 'global' kept from when there was one). */
const CEILING = { first: 'global:premiers', others: 'global' } as const;

export class PublicLookupLimiter {
  /** Counter key → until when this process refuses it without asking the database (ms). */
  private readonly refused = new Map<string, number>();

  constructor(
    private readonly ctx: WithCipher,
    private readonly perAddressMax = PUBLIC_LOOKUPS_PER_ADDRESS,
    private readonly globalMax = PUBLIC_LOOKUPS_GLOBAL,
    private readonly perNetworkMax = PUBLIC_LOOKUPS_PER_NETWORK,
    private readonly firstPerNetwork = PUBLIC_LOOKUPS_FIRST_PER_NETWORK,
  ) {}

  /** Counts one public look-up; throws 429 (with Retry-After) over a limit of its address, network or ceiling. */
  async take(ip: string, now = Date.now()): Promise<void> {
    const { db } = this.ctx;
    const cipher = cipherOf(this.ctx);
    const mine = `ip:${cipher.blindIndex(`limite ${ip}`)}`;
    const network = `net:${cipher.blindIndex(`limite ${networkOf(ip)}`)}`;
    for (const key of [mine, network]) {
      const until = this.refused.get(key);
      if (until !== undefined && until > now) this.refuse(until, now);
    }
    const at = new Date(now);
    const counted = await db.transaction(async (tx) => {
      const count = async (key: string) => ({
        key,
        ...(await countInWindow(db, tx, key, PUBLIC_LOOKUP_WINDOW_MS, at)),
      });
      // Always in this order (address, network, then a ceiling): two transactions never wait for each
      // other's rows.
      const byAddress = await count(mine);
      if (byAddress.count > this.perAddressMax) return { over: byAddress };
      const byNetwork = await count(network);
      if (byNetwork.count > this.perNetworkMax) return { over: byNetwork };
      // Only a look-up its address and network allow uses a ceiling (refused ones would let a flood fill
      // it); the network's count, just taken, says which one.
      const ceiling = byNetwork.count <= this.firstPerNetwork ? CEILING.first : CEILING.others;
      const until = this.refused.get(ceiling);
      if (until !== undefined && until > now) return { refusedUntil: until };
      const overall = await count(ceiling);
      return overall.count > this.globalMax ? { over: overall } : {};
    });
    if (counted.over) {
      const until = counted.over.startedAt.getTime() + PUBLIC_LOOKUP_WINDOW_MS;
      this.remember(counted.over.key, until, now);
      this.refuse(until, now);
    }
    // This ceiling was refused earlier by this process: refused without counting it again.
    if (counted.refusedUntil !== undefined) this.refuse(counted.refusedUntil, now);
  }

  private refuse(until: number, now: number): never {
    throw new DomainError('too_many_requests', MESSAGES.tooManyRequests, {
      retryAfterSeconds: retryAfterSeconds(until, now, PUBLIC_LOOKUP_WINDOW_MS),
    });
  }

  private remember(key: string, until: number, now: number) {
    if (this.refused.size >= REFUSALS_KEPT) {
      for (const [k, u] of this.refused) if (u <= now) this.refused.delete(k);
      if (this.refused.size >= REFUSALS_KEPT) this.refused.clear();
    }
    this.refused.set(key, until);
  }
}

/** Windows over for a minute or more are of no use: deletes them (the hourly purge). */
export async function purgeRateWindows(db: Database, now = Date.now()): Promise<number> {
  const w = db.t.rateWindows;
  const rows = await db.transaction((tx) =>
    tx
      .delete(w)
      .where(
        // The hourly windows of the e-mails about wrong second-factor codes (two-factor-guesses.ts) are
        // kept their hour.
        sql`${w.startedAt} < ${sql.param(new Date(now - PUBLIC_LOOKUP_WINDOW_MS), w.startedAt)} and (${w.key} not like ${MAIL_WINDOWS} or ${w.startedAt} < ${sql.param(new Date(now - GUESSES_MAIL_INTERVAL_MS), w.startedAt)})`,
      )
      .returning({ key: w.key }),
  );
  return rows.length;
}
