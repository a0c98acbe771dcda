// One delivery pass over the webhook outbox (docs/decisions/0039-signed-webhooks.md): claim each due
// delivery — never one whose report has an earlier delivery to the same endpoint not yet delivered —,
// POST it signed, record the outcome. The claim is the mail outbox's (docs/decisions/0004-mail-outbox.md).
// The endpoint's secrets are decrypted here only, at signing time, and never leave this module.
import { and, asc, eq, inArray, isNotNull, lte, min, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { isLoopbackHost } from '#shared/schemas/webhooks';
import type { Clock } from '#server/context';
import { DecryptError, type DataCipher } from '#server/crypto/cipher';
import { openWebhookSecret, WEBHOOK_PREVIOUS_SECRET, WEBHOOK_SECRET } from '#server/crypto/webhook-secrets';
import type { Database } from '#server/db/client';
import { liveWorkers } from '../mail/workers';
import { signedHeaders } from './signing';

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
}

export const DEFAULT_WEBHOOK_POLICY: WebhookPolicy = {
  maxAttempts: 12,
  retryBaseMs: 30_000,
  retryMaxMs: 60 * 60_000,
  timeoutMs: 10_000,
  leaseMs: 5 * 60_000,
  batchSize: 20,
  random: Math.random,
};

/** Characters of the receiver's answer kept to help an administrator (never more). */
export const RESPONSE_EXCERPT_CHARS = 200;
const RESPONSE_READ_BYTES = 1024;

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

/** What one POST gave: delivered (2xx), or why not. */
interface Outcome {
  delivered: boolean;
  status: number | null;
  error: string | null;
  excerpt: string | null;
}

/** Reads at most RESPONSE_READ_BYTES of the answer, then lets the rest go: nothing more is stored. */
async function excerptOf(response: Response): Promise<string | null> {
  if (!response.body) return null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < RESPONSE_READ_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const text = Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_EXCERPT_CHARS).trim();
  return text === '' ? null : text;
}

function describeError(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return 'Pas de réponse dans le délai imparti.';
  let message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error && cause.message && !message.includes(cause.message))
    message = `${message} (${cause.message})`;
  return message.slice(0, 500) || 'Erreur inconnue';
}

/** The address again, as the registration checked it: an endpoint stored otherwise is never called. */
function refusal(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Adresse invalide.';
  }
  if (parsed.protocol === 'https:') return null;
  if (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)) return null;
  return 'Adresse refusée : HTTPS obligatoire (HTTP seulement vers la machine locale).';
}

async function post(
  url: string,
  secrets: readonly string[],
  delivery: Claimed,
  policy: WebhookPolicy,
  at: Date,
  signal: AbortSignal,
): Promise<Outcome> {
  const refused = refusal(url);
  if (refused) return { delivered: false, status: null, error: refused, excerpt: null };
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Signalements-Webhooks/1',
        ...signedHeaders(secrets, delivery.eventId, at, delivery.payload),
      },
      body: delivery.payload,
      // A redirect is an answer like another: not 2xx, so not delivered, and never followed.
      redirect: 'manual',
      signal: AbortSignal.any([signal, AbortSignal.timeout(policy.timeoutMs)]),
    });
    const excerpt = await excerptOf(response);
    const delivered = response.status >= 200 && response.status < 300;
    return {
      delivered,
      status: response.status,
      error: delivered ? null : `Réponse HTTP ${response.status}.`,
      excerpt,
    };
  } catch (error) {
    return { delivered: false, status: null, error: describeError(error), excerpt: null };
  }
}

/** What the worker needs to sign and send: the cipher that opens the secrets, and its log and clock. */
export interface DeliveryContext {
  signal: AbortSignal;
  log: Logger;
  clock: Clock;
  cipher: DataCipher;
}

const UNREADABLE_SECRET =
  'Secret de signature illisible (clé de chiffrement incorrecte ou valeur altérée) : renouvelez le secret.';

/** Erases the former secrets whose grace period is over (also done at each signing and each rotation). */
export async function eraseExpiredWebhookSecrets(db: Database, now: Date): Promise<number> {
  const e = db.t.webhookEndpoints;
  const erased = await db.transaction((tx) =>
    tx
      .update(e)
      .set({ previousSecret: null, previousSecretExpiresAt: null })
      .where(and(isNotNull(e.previousSecretExpiresAt), lte(e.previousSecretExpiresAt, now)))
      .returning({ id: e.id }),
  );
  return erased.length;
}

/**
 * The secrets that sign a message sent now: the current one, then the former one while its grace period
 * lasts. A former secret past its expiry is erased at once; one that does not open is left out (logged
 * without any value). Null when the current one does not open: nothing can be signed.
 */
async function signingSecrets(
  db: Database,
  endpointId: number,
  stored: { secret: string; previousSecret: string | null; previousSecretExpiresAt: Date | null },
  now: Date,
  context: DeliveryContext,
): Promise<string[] | null> {
  const open = (column: typeof WEBHOOK_SECRET | typeof WEBHOOK_PREVIOUS_SECRET, value: string) => {
    try {
      return openWebhookSecret(context.cipher, column, endpointId, value);
    } catch (error) {
      if (!(error instanceof DecryptError)) throw error;
      context.log.warn({ endpoint: endpointId, column }, 'secret de webhook illisible');
      return null;
    }
  };
  const current = open(WEBHOOK_SECRET, stored.secret);
  if (current === null) return null;
  if (stored.previousSecret === null) return [current];
  const expiresAt = stored.previousSecretExpiresAt;
  if (expiresAt === null || expiresAt.getTime() <= now.getTime()) {
    const e = db.t.webhookEndpoints;
    await db.transaction((tx) =>
      tx
        .update(e)
        .set({ previousSecret: null, previousSecretExpiresAt: null })
        .where(and(eq(e.id, endpointId), eq(e.previousSecret, stored.previousSecret!))),
    );
    return [current];
  }
  const previous = open(WEBHOOK_PREVIOUS_SECRET, stored.previousSecret);
  return previous === null ? [current] : [current, previous];
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
      : await post(endpoint.url, secrets, delivery, policy, at, context.signal);
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
