import type { Database } from '#server/db/client';

export type MailKind =
  | 'account-setup'
  | 'password-reset'
  | 'partner-notification'
  | 'access-alert'
  | 'two-factor-guesses'
  | 'two-factor-reset'
  | 'assignment'
  | 'digest';

export interface OutgoingMail {
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
  html?: string;
}

type Listener = (db: Database) => void;
const listeners = new Set<Listener>();

/** Lets the delivery worker of `db` wake up when a message is queued; returns the unsubscribe function. */
export function onMailQueued(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Wakes the workers: a message was queued or put back in the queue. */
export function notifyMailQueued(db: Database): void {
  for (const listener of listeners) listener(db);
}

/**
 * Queues an e-mail in the outbox. Call it inside the transaction of the action that causes the
 * message (it joins it), so the action and its e-mail are committed or lost together; the delivery
 * worker sends it afterwards, with retries.
 */
export async function enqueueMail(db: Database, mail: OutgoingMail): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(db.t.mailOutbox).values({
      kind: mail.kind,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? null,
      nextAttemptAt: new Date(),
    });
    // The workers look once the message is committed (the surrounding transaction's COMMIT), never before.
    db.afterCommit(() => notifyMailQueued(db));
  });
}
