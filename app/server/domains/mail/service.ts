// What an administrator can do with the outbox: see the messages that could not be delivered — refused,
// or held by a delivery worker whose process died (decision 0004) — and put one back in the queue at once.
import { and, desc, eq, gt, isNotNull, notInArray, or, type SQL } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { notFound } from '#server/errors';
import { requireAdmin } from '../auth/guards';
import type { SessionUser } from '../auth/session';
import { notifyMailQueued } from './outbox';
import { liveWorkers } from './workers';

export interface FailedMailDto {
  '@id': string;
  '@type': 'MailOutbox';
  id: number;
  kind: string;
  to: string;
  subject: string;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  /** 'failed': refused or out of attempts; 'stuck': claimed by a delivery process that stopped. */
  state: 'failed' | 'stuck';
}

/** Claimed by a worker that no longer beats, its lease not yet over (a live worker will also take it). */
function stuck(db: Database, now: Date): SQL {
  const o = db.t.mailOutbox;
  return and(
    eq(o.status, 'pending'),
    isNotNull(o.claimedBy),
    gt(o.nextAttemptAt, now),
    notInArray(o.claimedBy, liveWorkers(db, now)),
  )!;
}

const FAILED_LIST_LIMIT = 200;

export async function listFailedMails(db: Database, actor: SessionUser): Promise<FailedMailDto[]> {
  requireAdmin(actor);
  const o = db.t.mailOutbox;
  const rows = await db.read
    .select({
      id: o.id,
      kind: o.kind,
      to: o.to,
      subject: o.subject,
      attempts: o.attempts,
      lastError: o.lastError,
      createdAt: o.createdAt,
      status: o.status,
    })
    .from(o)
    .where(or(eq(o.status, 'failed'), stuck(db, new Date())))
    .orderBy(desc(o.id))
    .limit(FAILED_LIST_LIMIT);
  return rows.map(({ status, ...row }) => ({
    '@id': `/api/mail_outbox/${row.id}`,
    '@type': 'MailOutbox',
    ...row,
    createdAt: row.createdAt.toISOString(),
    state: status === 'failed' ? 'failed' : 'stuck',
  }));
}

/**
 * Puts a failed message back in the queue with a fresh set of attempts, or frees a message held by a
 * stopped process; the worker sends it at once.
 */
export async function retryMail(db: Database, actor: SessionUser, id: number): Promise<{ id: number }> {
  requireAdmin(actor);
  const o = db.t.mailOutbox;
  const now = new Date();
  const [row] = await db.transaction(async (tx) => {
    const failed = await tx
      .update(o)
      .set({ status: 'pending', attempts: 0, nextAttemptAt: now, claimedBy: null })
      .where(and(eq(o.id, id), eq(o.status, 'failed')))
      .returning({ id: o.id });
    if (failed.length > 0) return failed;
    return tx
      .update(o)
      .set({ nextAttemptAt: now, claimedBy: null })
      .where(and(eq(o.id, id), stuck(db, now)))
      .returning({ id: o.id });
  });
  if (!row) throw notFound('Email introuvable ou déjà remis en file d’envoi.');
  notifyMailQueued(db);
  return row;
}
