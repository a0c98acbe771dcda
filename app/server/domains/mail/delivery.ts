// One delivery pass over the outbox: claim each due message, hand it to the transport, record the
// outcome. See docs/decisions/0004-mail-outbox.md for why a message is never sent twice.
import { and, asc, eq, inArray, isNotNull, lte, min, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { redactPasswordLinks } from './templates';
import type { MailToSend, MailTransport } from './transport';
import { liveWorkers } from './workers';

export interface DeliveryPolicy {
  /** Attempts before a message is marked failed. */
  maxAttempts: number;
  /** Wait after the first failed attempt; doubled after each further one. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** How long a claim keeps other workers away; far longer than a send can take. */
  leaseMs: number;
  batchSize: number;
  /** This worker's id (mail_workers), written on the messages it claims. */
  workerId?: string;
}

export const DEFAULT_POLICY: DeliveryPolicy = {
  maxAttempts: 10,
  retryBaseMs: 60_000,
  retryMaxMs: 60 * 60_000,
  leaseMs: 10 * 60_000,
  batchSize: 20,
};

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Delay before attempt n+1 after n failed attempts: base, 2×base, 4×base… capped. */
export function retryDelayMs(
  failedAttempts: number,
  policy: Pick<DeliveryPolicy, 'retryBaseMs' | 'retryMaxMs'>,
) {
  return Math.min(policy.retryBaseMs * 2 ** Math.max(0, failedAttempts - 1), policy.retryMaxMs);
}

type Claimed = MailToSend & { attempts: number };

/**
 * A message this worker may take now: pending and due, or claimed by a worker that died (it stopped
 * beating) before it could send it — without waiting for the end of its lease.
 */
export function takable(db: Database, now: Date): SQL {
  const o = db.t.mailOutbox;
  return and(
    eq(o.status, 'pending'),
    or(lte(o.nextAttemptAt, now), and(isNotNull(o.claimedBy), notInArray(o.claimedBy, liveWorkers(db, now)))),
  )!;
}

/**
 * Takes a due message for this worker: attempts + 1 and next_attempt_at pushed past the lease, only if
 * it is still pending and due. Two workers (or two processes on PostgreSQL, where the second UPDATE
 * waits for the first and re-reads the row) cannot both get a row back.
 */
async function claim(db: Database, id: number, policy: DeliveryPolicy): Promise<Claimed | null> {
  const o = db.t.mailOutbox;
  const now = new Date();
  const [row] = await db.transaction((tx) =>
    tx
      .update(o)
      .set({
        attempts: sql`${o.attempts} + 1`,
        nextAttemptAt: new Date(now.getTime() + policy.leaseMs),
        claimedBy: policy.workerId ?? null,
        claimedAt: now,
      })
      .where(
        and(
          eq(o.id, id),
          takable(db, now),
          // A registered worker claims only while its own heartbeat is fresh: one whose beats stopped
          // reaching the database could be taken for dead by the others, who would send its messages too.
          policy.workerId === undefined ? undefined : inArray(sql`${policy.workerId}`, liveWorkers(db, now)),
        ),
      )
      .returning({
        id: o.id,
        to: o.to,
        subject: o.subject,
        text: o.text,
        html: o.html,
        createdAt: o.createdAt,
        attempts: o.attempts,
      }),
  );
  return row ?? null;
}

function describeError(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error && cause.message && !message.includes(cause.message)) {
    message = `${message} (${cause.message})`;
  }
  return message.slice(0, 2000) || 'Erreur inconnue';
}

async function deliver(
  db: Database,
  transport: MailTransport,
  mail: Claimed,
  policy: DeliveryPolicy,
  signal: AbortSignal,
  log: Logger,
): Promise<void> {
  const o = db.t.mailOutbox;
  // The outcome is written only while this worker still holds the message (a worker taken for dead may
  // have lost it to another): the other's outcome is not overwritten.
  const held =
    policy.workerId === undefined
      ? eq(o.id, mail.id)
      : and(eq(o.id, mail.id), eq(o.claimedBy, policy.workerId))!;
  try {
    await transport.send(mail, signal);
  } catch (error) {
    const lastError = describeError(error);
    // nodemailer marks 5xx answers as permanent: retrying the same message cannot succeed.
    const permanent = (error as { permanent?: unknown }).permanent === true;
    if (permanent || mail.attempts >= policy.maxAttempts) {
      await db.transaction((tx) =>
        tx.update(o).set({ status: 'failed', lastError, claimedBy: null }).where(held),
      );
      log.warn({ mailId: mail.id, attempts: mail.attempts, err: lastError }, 'e-mail en échec définitif');
    } else {
      // Interrupted by a shutdown: due again at once, for the next process to start.
      const delay = signal.aborted ? 0 : retryDelayMs(mail.attempts, policy);
      const nextAttemptAt = new Date(Date.now() + delay);
      await db.transaction((tx) =>
        tx.update(o).set({ lastError, nextAttemptAt, claimedBy: null }).where(held),
      );
      log.warn(
        { mailId: mail.id, attempts: mail.attempts, nextAttemptAt, err: lastError },
        'e-mail non envoyé, nouvel essai prévu',
      );
    }
    return;
  }
  // Once accepted, the set-up links it carried are no longer needed in the database.
  await db.transaction((tx) =>
    tx
      .update(o)
      .set({
        status: 'sent',
        sentAt: new Date(),
        lastError: null,
        text: redactPasswordLinks(mail.text),
        html: mail.html === null ? null : redactPasswordLinks(mail.html),
      })
      .where(held),
  );
  log.info({ mailId: mail.id, via: transport.description }, 'e-mail envoyé');
}

/** Sends the messages due now; returns how many this worker claimed. */
export async function deliverDueMail(
  db: Database,
  transport: MailTransport,
  policy: DeliveryPolicy,
  context: { signal: AbortSignal; log: Logger; shouldStop: () => boolean },
): Promise<number> {
  const o = db.t.mailOutbox;
  const due = await db.read
    .select({ id: o.id })
    .from(o)
    .where(takable(db, new Date()))
    .orderBy(asc(o.nextAttemptAt), asc(o.id))
    .limit(policy.batchSize);
  let claimed = 0;
  for (const { id } of due) {
    if (context.shouldStop()) break;
    const mail = await claim(db, id, policy);
    if (!mail) continue;
    claimed++;
    await deliver(db, transport, mail, policy, context.signal, context.log);
  }
  return claimed;
}

/** Milliseconds until the next pending message is due (0 if one is due now), or null when none is pending. */
export async function msUntilNextDue(db: Database): Promise<number | null> {
  const o = db.t.mailOutbox;
  const [row] = await db.read
    .select({ next: min(o.nextAttemptAt) })
    .from(o)
    .where(eq(o.status, 'pending'));
  const next = row?.next;
  if (next === null || next === undefined) return null;
  const at = next instanceof Date ? next.getTime() : new Date(next as unknown as string | number).getTime();
  return Math.max(0, at - Date.now());
}
