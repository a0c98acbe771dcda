// What an administrator does with the partners' webhooks (docs/decisions/0039-signed-webhooks.md): register
// an endpoint (its secret shown once), renew its secret (the new one shown once, the former one still
// signing for a grace period), enable, disable or delete it, read the deliveries and their attempts, and
// send a dead letter again.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  WEBHOOK_SECRET_GRACE_HOURS,
  type webhookDeliveriesInputSchema,
  type webhookEndpointInputSchema,
} from '#shared/schemas/webhooks';
import type { AppContext } from '#server/context';
import { cipherOf } from '#server/context';
import { DecryptError } from '#server/crypto/cipher';
import {
  openWebhookSecret,
  sealWebhookSecret,
  WEBHOOK_PREVIOUS_SECRET,
  WEBHOOK_SECRET,
} from '#server/crypto/webhook-secrets';
import type { Database } from '#server/db/client';
import { conflict, invalid, notFound } from '#server/errors';
import { requireAdmin } from '../auth/guards';
import type { SessionUser } from '../auth/session';
import type { EndpointOrigin } from './addresses';
import { notifyWebhookQueued } from './events';
import { generateWebhookSecret } from './signing';

type EndpointInput = z.output<typeof webhookEndpointInputSchema>;
type DeliveriesInput = z.output<typeof webhookDeliveriesInputSchema>;

export interface WebhookEndpointDto {
  id: number;
  partenaire: { code: string; designation: string };
  url: string;
  actif: boolean;
  createdAt: string;
  /** Until when the former secret still signs, after « Renouveler le secret »; null otherwise. */
  ancienSecretJusquA: string | null;
  livraisons: { enAttente: number; livrees: number; lettresMortes: number };
  /** Who registered it: an administrator here, or the partner with its API token (docs/decisions/0051). */
  origine: EndpointOrigin;
}

export interface WebhookDeliveryDto {
  id: number;
  eventId: string;
  endpoint: { id: number; url: string; partenaire: string };
  signalement: string;
  type: string;
  state: 'pending' | 'delivered' | 'dead';
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  lastResponse: string | null;
  createdAt: string;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
}

export const WEBHOOK_REFUSALS = {
  unknownPartner: (code: string) => `Partenaire introuvable : ${code}.`,
  endpointNotFound: 'Point de réception introuvable.',
  deliveryNotDead: 'Livraison introuvable ou qui n’est pas en lettre morte.',
  secretRenewedMeanwhile:
    'Le secret de ce point de réception vient d’être renouvelé par ailleurs : rechargez la page, puis recommencez.',
} as const;

/**
 * How long the former secret keeps signing after « Renouveler le secret » (every delivery carries both
 * signatures meanwhile): a day for the partner to install the new one. docs/decisions/0039-signed-webhooks.md.
 */
export const WEBHOOK_SECRET_GRACE_MS = WEBHOOK_SECRET_GRACE_HOURS * 60 * 60_000;

type WebhookContext = Pick<AppContext, 'db' | 'cipher'>;

const DELIVERIES_LIMIT = 200;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function listWebhookEndpoints(db: Database, actor: SessionUser): Promise<WebhookEndpointDto[]> {
  requireAdmin(actor);
  return endpointsOf(db, null);
}

/** The endpoints of one partner (its id), or of all of them (null), with their deliveries counted. */
export async function endpointsOf(db: Database, partenaireId: number | null): Promise<WebhookEndpointDto[]> {
  const { webhookEndpoints: e, webhookDeliveries: d, partenaires: p } = db.t;
  const count = (state: string) =>
    sql<number>`coalesce(sum(case when ${d.status} = ${state} then 1 else 0 end), 0)`.mapWith(Number);
  const rows = await db.read
    .select({
      id: e.id,
      url: e.url,
      isEnabled: e.isEnabled,
      origin: e.origin,
      createdAt: e.createdAt,
      previousSecretExpiresAt: e.previousSecretExpiresAt,
      partenaireCode: p.code,
      partenaireDesignation: p.designation,
      pending: count('pending'),
      delivered: count('delivered'),
      dead: count('dead'),
    })
    .from(e)
    .innerJoin(p, eq(p.id, e.partenaireId))
    .leftJoin(d, eq(d.endpointId, e.id))
    .where(partenaireId === null ? undefined : eq(e.partenaireId, partenaireId))
    .groupBy(
      e.id,
      e.url,
      e.isEnabled,
      e.origin,
      e.createdAt,
      e.previousSecretExpiresAt,
      p.code,
      p.designation,
    )
    .orderBy(p.designation, e.id);
  return rows.map((r) => ({
    id: Number(r.id),
    partenaire: { code: r.partenaireCode, designation: r.partenaireDesignation },
    url: r.url,
    actif: r.isEnabled,
    origine: r.origin,
    createdAt: r.createdAt.toISOString(),
    // One past its expiry is erased by the worker's next pass; it no longer signs already.
    ancienSecretJusquA:
      r.previousSecretExpiresAt && r.previousSecretExpiresAt.getTime() > Date.now()
        ? r.previousSecretExpiresAt.toISOString()
        : null,
    livraisons: { enAttente: r.pending, livrees: r.delivered, lettresMortes: r.dead },
  }));
}

/**
 * Registers an endpoint; the answer carries its secret, the only time it is ever shown. The secret is
 * stored encrypted and bound to the endpoint's id, known once the row exists: the row is written with an
 * empty secret, then sealed, in one transaction (no one ever reads the empty value).
 */
export async function createWebhookEndpoint(
  ctx: WebhookContext,
  actor: SessionUser,
  input: EndpointInput,
): Promise<{ id: number; url: string; partenaire: string; secret: string }> {
  requireAdmin(actor);
  return ctx.db.transaction(async (tx) => {
    const { partenaires: p } = ctx.db.t;
    const [partner] = await tx.select({ id: p.id }).from(p).where(eq(p.code, input.partenaire)).limit(1);
    if (!partner)
      throw invalid(WEBHOOK_REFUSALS.unknownPartner(input.partenaire), { propertyPath: 'partenaire' });
    const created = await insertEndpoint(ctx, partner.id, input.url, 'administrateur');
    return { ...created, partenaire: input.partenaire };
  });
}

/**
 * Inserts an endpoint of a partner and seals its new secret, in the caller's transaction: the row is written
 * with an empty secret, then sealed with its id (no one ever reads the empty value). Returns the secret.
 */
export async function insertEndpoint(
  ctx: WebhookContext,
  partenaireId: number,
  url: string,
  origin: EndpointOrigin,
): Promise<{ id: number; url: string; secret: string }> {
  const { db } = ctx;
  const cipher = cipherOf(ctx);
  const e = db.t.webhookEndpoints;
  const secret = generateWebhookSecret();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(e)
      .values({ partenaireId, url, secret: '', origin })
      .returning({ id: e.id, url: e.url });
    const id = Number(row!.id);
    await tx
      .update(e)
      .set({ secret: sealWebhookSecret(cipher, WEBHOOK_SECRET, id, secret) })
      .where(eq(e.id, id));
    return { id, url: row!.url, secret };
  });
}

/**
 * « Renouveler le secret »: a new secret, shown once in the answer. The one it replaces keeps signing until
 * `now + WEBHOOK_SECRET_GRACE_MS` (deliveries carry both signatures meanwhile), so the partner switches
 * without a gap. A second renewal within the grace period keeps the secret it replaces (the latest one the
 * partner was given) and erases the older one at once: at most two secrets ever sign. A current secret
 * that does not open (damaged, another key) has nothing to keep: it is replaced without a grace period.
 */
export async function rotateWebhookSecret(
  ctx: WebhookContext & Pick<AppContext, 'clock'>,
  actor: SessionUser,
  id: number,
): Promise<{
  id: number;
  url: string;
  partenaire: string;
  secret: string;
  ancienSecretJusquA: string | null;
}> {
  requireAdmin(actor);
  return renewSecret(ctx, id, null);
}

/** The renewal itself, of any endpoint (null) or only of one partner's (its id): another's is not found. */
export async function renewSecret(
  ctx: WebhookContext & Pick<AppContext, 'clock'>,
  id: number,
  partenaireId: number | null,
): Promise<{
  id: number;
  url: string;
  partenaire: string;
  secret: string;
  ancienSecretJusquA: string | null;
}> {
  const { db } = ctx;
  const cipher = cipherOf(ctx);
  const { webhookEndpoints: e, partenaires: p } = db.t;
  const secret = generateWebhookSecret();
  const now = ctx.clock.now();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ url: e.url, secret: e.secret, partenaire: p.code })
      .from(e)
      .innerJoin(p, eq(p.id, e.partenaireId))
      .where(and(eq(e.id, id), partenaireId === null ? undefined : eq(e.partenaireId, partenaireId)))
      .limit(1);
    if (!row) throw notFound(WEBHOOK_REFUSALS.endpointNotFound);
    let previous: string | null = null;
    try {
      previous = sealWebhookSecret(
        cipher,
        WEBHOOK_PREVIOUS_SECRET,
        id,
        openWebhookSecret(cipher, WEBHOOK_SECRET, id, row.secret),
      );
    } catch (error) {
      if (!(error instanceof DecryptError)) throw error;
    }
    const expiresAt = previous === null ? null : new Date(now.getTime() + WEBHOOK_SECRET_GRACE_MS);
    // Written only over the secret just read: two renewals at once do not both succeed (PostgreSQL).
    const [updated] = await tx
      .update(e)
      .set({
        secret: sealWebhookSecret(cipher, WEBHOOK_SECRET, id, secret),
        previousSecret: previous,
        previousSecretExpiresAt: expiresAt,
      })
      .where(and(eq(e.id, id), eq(e.secret, row.secret)))
      .returning({ id: e.id });
    if (!updated) throw conflict(WEBHOOK_REFUSALS.secretRenewedMeanwhile);
    return {
      id,
      url: row.url,
      partenaire: row.partenaire,
      secret,
      ancienSecretJusquA: expiresAt?.toISOString() ?? null,
    };
  });
}

export async function setWebhookEndpointEnabled(
  db: Database,
  actor: SessionUser,
  id: number,
  enabled: boolean,
): Promise<{ id: number; actif: boolean }> {
  requireAdmin(actor);
  const e = db.t.webhookEndpoints;
  const [row] = await db.transaction((tx) =>
    tx.update(e).set({ isEnabled: enabled }).where(eq(e.id, id)).returning({ id: e.id }),
  );
  if (!row) throw notFound(WEBHOOK_REFUSALS.endpointNotFound);
  // Its waiting deliveries may go now.
  if (enabled) notifyWebhookQueued(db);
  return { id, actif: enabled };
}

/** Deletes an endpoint and its deliveries (the partner stops hearing at once). */
export async function deleteWebhookEndpoint(
  db: Database,
  actor: SessionUser,
  id: number,
): Promise<{ id: number }> {
  requireAdmin(actor);
  const e = db.t.webhookEndpoints;
  const [row] = await db.transaction((tx) => tx.delete(e).where(eq(e.id, id)).returning({ id: e.id }));
  if (!row) throw notFound(WEBHOOK_REFUSALS.endpointNotFound);
  return { id };
}

export async function listWebhookDeliveries(
  db: Database,
  actor: SessionUser,
  input: DeliveriesInput,
): Promise<WebhookDeliveryDto[]> {
  requireAdmin(actor);
  const { webhookEndpoints: e, webhookDeliveries: d, partenaires: p, signalements: s } = db.t;
  const rows = await db.read
    .select({
      id: d.id,
      eventId: d.eventId,
      endpointId: e.id,
      url: e.url,
      partenaire: p.code,
      signalement: s.code,
      type: d.eventType,
      state: d.status,
      attempts: d.attempts,
      lastStatus: d.lastStatus,
      lastError: d.lastError,
      lastResponse: d.lastResponse,
      createdAt: d.createdAt,
      nextAttemptAt: d.nextAttemptAt,
      deliveredAt: d.deliveredAt,
    })
    .from(d)
    .innerJoin(e, eq(e.id, d.endpointId))
    .innerJoin(p, eq(p.id, e.partenaireId))
    .innerJoin(s, eq(s.id, d.signalementId))
    .where(
      and(
        input.endpoint === undefined ? undefined : eq(d.endpointId, input.endpoint),
        input.state === undefined ? undefined : eq(d.status, input.state),
      ),
    )
    .orderBy(desc(d.id))
    .limit(DELIVERIES_LIMIT);
  return rows.map((r) => ({
    id: Number(r.id),
    eventId: r.eventId,
    endpoint: { id: Number(r.endpointId), url: r.url, partenaire: r.partenaire },
    signalement: r.signalement,
    type: r.type,
    state: r.state,
    attempts: r.attempts,
    lastStatus: r.lastStatus,
    lastError: r.lastError,
    lastResponse: r.lastResponse,
    createdAt: r.createdAt.toISOString(),
    nextAttemptAt: r.state === 'pending' ? iso(r.nextAttemptAt) : null,
    deliveredAt: iso(r.deliveredAt),
  }));
}

/** Sends a dead letter again with a fresh set of attempts; the deliveries queued behind it follow. */
export async function retryWebhookDelivery(
  db: Database,
  actor: SessionUser,
  id: number,
): Promise<{ id: number }> {
  requireAdmin(actor);
  const d = db.t.webhookDeliveries;
  const [row] = await db.transaction((tx) =>
    tx
      .update(d)
      .set({ status: 'pending', attempts: 0, nextAttemptAt: new Date(), claimedBy: null })
      .where(and(eq(d.id, id), eq(d.status, 'dead')))
      .returning({ id: d.id }),
  );
  if (!row) throw notFound(WEBHOOK_REFUSALS.deliveryNotDead);
  notifyWebhookQueued(db);
  return { id };
}
