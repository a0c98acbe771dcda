// One delivery pass over the webhook outbox (docs/decisions/0039-signed-webhooks.md): claim each due
// delivery — never one whose report has an earlier delivery to the same endpoint not yet delivered —,
// POST it signed, record the outcome. The claim is the mail outbox's (docs/decisions/0004-mail-outbox.md).
// The signed POST is in delivery-post.ts; the endpoint's secrets are opened in delivery-secrets.ts only, at
// signing time, and never leave these modules.
import { and, asc, eq, inArray, isNotNull, lte, min, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Clock } from '#server/context';
import type { DataCipher } from '#server/crypto/cipher';
import type { Database } from '#server/db/client';
import { liveWorkers } from '../mail/workers';
import type { PartnerAddressRule, publicOnlyLookup } from './addresses';
import { post, type Outcome } from './delivery-post';
import { signingSecrets, UNREADABLE_SECRET } from './delivery-secrets';

export interface WebhookPolicy {
  /** Attempts before the dead letter. */
  maxAttempts: number;
  /** Wait after the first failed attempt; doubled after each further one, capped, with jitter. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** How long one POST may take, answer included. */
  timeoutMs: number;
  /** How long a claim keeps other workers away; far longer than a POST can take. */
  leaseMs: number;
  batchSize: number;
  /** This worker's id (mail_workers), written on the deliveries it claims. */
  workerId?: string;
  /** Returns a number in [0, 1): the jitter's draw (tests pass their own). */
  random: () => number;
  /** Where partner-registered endpoints may point (WEBHOOK_PARTNER_ADDRESSES, docs/decisions/0051). */
  partnerAddresses: PartnerAddressRule;
  /** The resolver of their names (default: the system's; tests pass their own). */
  resolve?: Parameters<typeof publicOnlyLookup>[0];
}

export const DEFAULT_WEBHOOK_POLICY: WebhookPolicy = {
  maxAttempts: 12,
  retryBaseMs: 30_000,
  retryMaxMs: 60 * 60_000,
  timeoutMs: 10_000,
  leaseMs: 5 * 60_000,
  batchSize: 20,
  random: Math.random,
  partnerAddresses: 'public',
};

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Delay before attempt n+1 after n failed attempts: base × 2^(n-1), capped, then drawn between half of it
 * and all of it (jitter), so endpoints that failed together do not all retry at the same instant.
 */
export function webhookRetryDelayMs(
  failedAttempts: number,
  policy: Pick<WebhookPolicy, 'retryBaseMs' | 'retryMaxMs' | 'random'>,
): number {
  const ceiling = Math.min(policy.retryBaseMs * 2 ** Math.max(0, failedAttempts - 1), policy.retryMaxMs);
  return Math.round(ceiling / 2 + (ceiling / 2) * policy.random());
}

/**
 * No earlier delivery of the same report to the same endpoint is still waiting or dead: deliveries go out
 * in order per report. Written with the table's own name, so that it reads the outer row in UPDATE and
 * SELECT alike (the builder would leave the outer columns unqualified inside the sub-select).
 */
const inOrder = sql`not exists (select 1 from webhook_deliveries earlier
  where earlier.endpoint_id = webhook_deliveries.endpoint_id
    and earlier.signalement_id = webhook_deliveries.signalement_id
    and earlier.id < webhook_deliveries.id
    and earlier.status <> 'delivered')`;

/** Pending, its endpoint enabled, and first in line for its report: it goes out when due. */
function nextInLine(db: Database): SQL {
  const d = db.t.webhookDeliveries;
  const e = db.t.webhookEndpoints;
  return and(
    eq(d.status, 'pending'),
    inArray(d.endpointId, db.read.select({ id: e.id }).from(e).where(eq(e.isEnabled, true))),
    inOrder,
  )!;
}

/** A delivery this worker may take now: next in line and due, or held by a worker that died. */
function takable(db: Database, now: Date): SQL {
  const d = db.t.webhookDeliveries;
  return and(
    nextInLine(db),
    or(lte(d.nextAttemptAt, now), and(isNotNull(d.claimedBy), notInArray(d.claimedBy, liveWorkers(db, now)))),
  )!;
}

interface Claimed {
  id: number;
  eventId: string;
  endpointId: number;
  payload: string;
  attempts: number;
}

async function claim(db: Database, id: number, policy: WebhookPolicy, now: Date): Promise<Claimed | null> {
  const d = db.t.webhookDeliveries;
  const [row] = await db.transaction((tx) =>
    tx
      .update(d)
      .set({
        attempts: sql`${d.attempts} + 1`,
        nextAttemptAt: new Date(now.getTime() + policy.leaseMs),
        claimedBy: policy.workerId ?? null,
        claimedAt: now,
      })
      .where(
        and(
          eq(d.id, id),
          takable(db, now),
          // As the mail worker: claim only while this worker's own heartbeat is fresh in the database.
          policy.workerId === undefined ? undefined : inArray(sql`${policy.workerId}`, liveWorkers(db, now)),
        ),
      )
      .returning({
        id: d.id,
        eventId: d.eventId,
        endpointId: d.endpointId,
        payload: d.payload,
        attempts: d.attempts,
      }),
  );
  return row ?? null;
}

/** What the worker needs to sign and send: the cipher that opens the secrets, and its log and clock. */
export interface DeliveryContext {
  signal: AbortSignal;
  log: Logger;
  clock: Clock;
  cipher: DataCipher;
}

async function deliver(
  db: Database,
  delivery: Claimed,
  policy: WebhookPolicy,
  context: DeliveryContext,
): Promise<void> {
  const d = db.t.webhookDeliveries;
  const e = db.t.webhookEndpoints;
  const [endpoint] = await db.read
    .select({
      url: e.url,
      origin: e.origin,
      secret: e.secret,
      previousSecret: e.previousSecret,
      previousSecretExpiresAt: e.previousSecretExpiresAt,
    })
    .from(e)
    .where(eq(e.id, delivery.endpointId));
  // Written only while this worker still holds the delivery (as the mail worker's outcomes).
  const held =
    policy.workerId === undefined
      ? eq(d.id, delivery.id)
      : and(eq(d.id, delivery.id), eq(d.claimedBy, policy.workerId))!;
  if (!endpoint) return; // deleted meanwhile: its deliveries went with it
  const at = context.clock.now();
  const secrets = await signingSecrets(db, delivery.endpointId, endpoint, at, context);
  const outcome: Outcome =
    secrets === null
      ? { delivered: false, status: null, error: UNREADABLE_SECRET, excerpt: null }
      : await post(endpoint, secrets, delivery, policy, at, context.signal);
  const recorded = { lastStatus: outcome.status, lastError: outcome.error, lastResponse: outcome.excerpt };
  const now = context.clock.now();
  if (outcome.delivered) {
    await db.transaction((tx) =>
      tx
        .update(d)
        .set({ ...recorded, status: 'delivered', deliveredAt: now, claimedBy: null })
        .where(held),
    );
    context.log.info(
      { webhookDelivery: delivery.id, endpoint: delivery.endpointId, status: outcome.status },
      'webhook livré',
    );
    return;
  }
  if (delivery.attempts >= policy.maxAttempts && !context.signal.aborted) {
    await db.transaction((tx) =>
      tx
        .update(d)
        .set({ ...recorded, status: 'dead', claimedBy: null })
        .where(held),
    );
    context.log.warn(
      {
        webhookDelivery: delivery.id,
        endpoint: delivery.endpointId,
        attempts: delivery.attempts,
        err: outcome.error,
      },
      'webhook en lettre morte',
    );
    return;
  }
  // Interrupted by a shutdown: due again at once, for the next process to start.
  const delay = context.signal.aborted ? 0 : webhookRetryDelayMs(delivery.attempts, policy);
  const nextAttemptAt = new Date(now.getTime() + delay);
  await db.transaction((tx) =>
    tx
      .update(d)
      .set({ ...recorded, nextAttemptAt, claimedBy: null })
      .where(held),
  );
  context.log.warn(
    {
      webhookDelivery: delivery.id,
      endpoint: delivery.endpointId,
      attempts: delivery.attempts,
      nextAttemptAt,
      err: outcome.error,
    },
    'webhook non livré, nouvel essai prévu',
  );
}

/** Delivers what is due now; returns how many deliveries this worker claimed. */
export async function deliverDueWebhooks(
  db: Database,
  policy: WebhookPolicy,
  context: DeliveryContext & { shouldStop: () => boolean },
): Promise<number> {
  const d = db.t.webhookDeliveries;
  const now = context.clock.now();
  const due = await db.read
    .select({ id: d.id })
    .from(d)
    .where(takable(db, now))
    .orderBy(asc(d.id))
    .limit(policy.batchSize);
  let claimed = 0;
  for (const { id } of due) {
    if (context.shouldStop()) break;
    const delivery = await claim(db, id, policy, context.clock.now());
    if (!delivery) continue;
    claimed++;
    await deliver(db, delivery, policy, context);
  }
  return claimed;
}

/**
 * Milliseconds until the next delivery that may go is due (0 if one is due now), or null when none may:
 * one waiting behind a dead letter or on a disabled endpoint does not count (the worker would spin on it).
 */
export async function msUntilNextWebhook(db: Database, now: Date): Promise<number | null> {
  const d = db.t.webhookDeliveries;
  const [row] = await db.read
    .select({ next: min(d.nextAttemptAt) })
    .from(d)
    .where(nextInLine(db));
  const next = row?.next;
  if (next === null || next === undefined) return null;
  const at = next instanceof Date ? next.getTime() : new Date(next as unknown as string | number).getTime();
  return Math.max(0, at - now.getTime());
}
