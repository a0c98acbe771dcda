// The delivery workers alive (docs/decisions/0004-mail-outbox.md): each registers under an id
// of its own and beats every HEARTBEAT_MS. A worker that has not beaten for STALE_MS is dead (its process
// was killed): the messages it claimed are taken again by a live worker, and shown to administrators.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { eq, gt } from 'drizzle-orm';
import type { Database } from '#server/db/client';

export const HEARTBEAT_MS = 5_000;
/** Six missed beats: a process this silent is gone (an event loop is never blocked that long). */
export const STALE_MS = 30_000;

export function newWorkerId(): string {
  return `${hostname().slice(0, 60)}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export async function beat(db: Database, id: string, now = new Date()): Promise<void> {
  const w = db.t.mailWorkers;
  await db.transaction((tx) =>
    tx
      .insert(w)
      .values({ id, beatAt: now, startedAt: now })
      .onConflictDoUpdate({ target: w.id, set: { beatAt: now } }),
  );
}

export async function unregister(db: Database, id: string): Promise<void> {
  const w = db.t.mailWorkers;
  await db.transaction((tx) => tx.delete(w).where(eq(w.id, id)));
}

/** The ids of the workers alive at `now`, as a sub-select. */
export function liveWorkers(db: Database, now = new Date()) {
  const w = db.t.mailWorkers;
  return db.read
    .select({ id: w.id })
    .from(w)
    .where(gt(w.beatAt, new Date(now.getTime() - STALE_MS)));
}
