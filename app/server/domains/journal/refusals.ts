// Log-ins refused by the limiter are counted, not logged one row each (decision 0015, "Flooding"): one
// anonymous address wrote about 320 rows a second into the access log. Per server process and per address,
// the first refusal of a window writes its row at once (with the account or the keyed hash of the e-mail
// typed, as any failed log-in); the later ones of the window only increment a counter here, which becomes one
// summary row when the window is over: at the next refusal from that address, at the hourly maintenance
// (mail/retention.ts), or when the server stops. So an address writes at most two rows per window and
// process, whatever its rate. Counters lost in a crash are lost (the first row of the window stays).
// Flushes run one at a time per process, and each window is written by whoever takes it out of the map
// first, so two triggers at once (a full map, the hourly purge, the stop) never write one window twice;
// a full map is flushed in the background, so the refusal that finds it full does not wait for thousands
// of rows.
import type { Database } from '#server/db/client';
import { recordAccess } from './append';

/** The window of the address rule of the log-in limiter (auth/throttle.ts). */
export const REFUSAL_WINDOW_MS = 15 * 60_000;
/** Addresses counted at most; beyond, refusals from new addresses share one counter without address. */
export const REFUSAL_LIMITS = { addressesKept: 10_000 };
const OTHERS = '';

interface RefusalWindow {
  startedAt: number;
  /** Refusals after the first one, which has its own row. */
  more: number;
}

/**
 * The refusal windows of one server process (or test app): held by its context (server/context.ts) and
 * written to its database.
 */
export class LoginRefusals {
  readonly windows = new Map<string, RefusalWindow>();
  /** The flush under way (or the last one): the next one waits for it. */
  flushing: Promise<unknown> = Promise.resolve();
  /** The background flush started by a full map, while it runs (at most one). */
  background: Promise<void> | null = null;
}

/** The summary row of a window, stamped `at` (when the window was closed: the refusal or the flush that closed it). */
async function writeSummary(db: Database, address: string, w: RefusalWindow, at: Date) {
  if (w.more === 0) return;
  await recordAccess(
    db,
    {
      kind: 'echec_connexion',
      userId: null,
      email: null,
      address: address === OTHERS ? null : address,
      details: {
        motif: 'trop_de_tentatives',
        refus: w.more,
        depuis: new Date(w.startedAt).toISOString(),
        fenetreMinutes: REFUSAL_WINDOW_MS / 60_000,
        ...(address === OTHERS ? { autresAdresses: true } : {}),
      },
    },
    undefined,
    at,
  );
}

/**
 * One refusal by the limiter. `first` writes the row of the first refusal of a window; it is called
 * only then. Returns whether a row was written now.
 */
export async function countRefusal(
  refusals: LoginRefusals,
  db: Database,
  address: string,
  first: () => Promise<void>,
  now = Date.now(),
): Promise<boolean> {
  const { windows } = refusals;
  let key = address;
  if (!windows.has(key) && windows.size >= REFUSAL_LIMITS.addressesKept) {
    flushInBackground(refusals, db, now);
    key = OTHERS;
  }
  const current = windows.get(key);
  if (current && now - current.startedAt < REFUSAL_WINDOW_MS) {
    current.more++;
    return false;
  }
  // Set before any await, so that concurrent refusals from the address count instead of writing.
  windows.set(key, { startedAt: now, more: key === OTHERS ? 1 : 0 });
  if (current) await writeSummary(db, key, current, new Date(now));
  if (key !== OTHERS) await first();
  return true;
}

/**
 * Writes the summary rows of the windows that are over (all of them with `all`, when the server stops)
 * and forgets them. Waits for a flush under way first (one at a time).
 */
export function flushLoginRefusals(
  refusals: LoginRefusals,
  db: Database,
  now = Date.now(),
  all = false,
): Promise<number> {
  const next = refusals.flushing.catch(() => undefined).then(() => flushNow(refusals.windows, db, now, all));
  refusals.flushing = next;
  return next;
}

async function flushNow(
  windows: Map<string, RefusalWindow>,
  db: Database,
  now: number,
  all: boolean,
): Promise<number> {
  let written = 0;
  for (const [address, w] of [...windows]) {
    if (!all && now - w.startedAt < REFUSAL_WINDOW_MS) continue;
    // Already taken out (and written) by a refusal of a new window of this address.
    if (windows.get(address) !== w) continue;
    windows.delete(address);
    if (w.more > 0) {
      await writeSummary(db, address, w, new Date(now));
      written++;
    }
  }
  return written;
}

/** Resolves once the background flush started by a full map (if any) is over; for tests. */
export async function backgroundRefusalFlush(refusals: LoginRefusals): Promise<void> {
  await refusals.background;
}

function flushInBackground(refusals: LoginRefusals, db: Database, now: number): void {
  if (refusals.background) return;
  const running = flushLoginRefusals(refusals, db, now).then(
    () => undefined,
    // No detail: the driver's error quotes the row, and so the address.
    () => console.warn('journal des accès : résumé des connexions refusées non écrit (table pleine)'),
  );
  refusals.background = running.finally(() => {
    refusals.background = null;
  });
}
