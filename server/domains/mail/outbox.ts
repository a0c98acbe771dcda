import type { Database } from '../../db/client';

export type MailKind = 'account-setup' | 'password-reset' | 'partner-notification';

export interface OutgoingMail {
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
  html?: string;
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
  });
}
