// What an administrator can do with the outbox: see the messages that could not be delivered and put
// one back in the queue.
import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { notFound } from '../../errors';
import { requireAdmin } from '../auth/guards';
import type { SessionUser } from '../auth/session';
import { notifyMailQueued } from './outbox';

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
    })
    .from(o)
    .where(eq(o.status, 'failed'))
    .orderBy(desc(o.id))
    .limit(FAILED_LIST_LIMIT);
  return rows.map((row) => ({
    '@id': `/api/mail_outbox/${row.id}`,
    '@type': 'MailOutbox',
    ...row,
    createdAt: row.createdAt.toISOString(),
  }));
}

/** Puts a failed message back in the queue with a fresh set of attempts; the worker sends it at once. */
export async function retryMail(db: Database, actor: SessionUser, id: number): Promise<{ id: number }> {
  requireAdmin(actor);
  const o = db.t.mailOutbox;
  const [row] = await db.transaction((tx) =>
    tx
      .update(o)
      .set({ status: 'pending', attempts: 0, nextAttemptAt: new Date() })
      .where(and(eq(o.id, id), eq(o.status, 'failed')))
      .returning({ id: o.id }),
  );
  if (!row) throw notFound('Email introuvable ou déjà remis en file d’envoi.');
  notifyMailQueued(db);
  return row;
}
