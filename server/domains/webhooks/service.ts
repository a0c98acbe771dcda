// What an administrator does with the partners' webhooks (docs/decisions/0039-signed-webhooks.md): register
// an endpoint (its secret shown once), enable, disable or delete it, read the deliveries and their
// attempts, and send a dead letter again.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { webhookDeliveriesInputSchema, webhookEndpointInputSchema } from '#shared/schemas/webhooks';
import type { Database } from '#server/db/client';
import { invalid, notFound } from '#server/errors';
import { requireAdmin } from '../auth/guards';
import type { SessionUser } from '../auth/session';
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
  livraisons: { enAttente: number; livrees: number; lettresMortes: number };
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
} as const;

const DELIVERIES_LIMIT = 200;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function listWebhookEndpoints(db: Database, actor: SessionUser): Promise<WebhookEndpointDto[]> {
  requireAdmin(actor);
  const { webhookEndpoints: e, webhookDeliveries: d, partenaires: p } = db.t;
  const count = (state: string) =>
    sql<number>`coalesce(sum(case when ${d.status} = ${state} then 1 else 0 end), 0)`.mapWith(Number);
  const rows = await db.read
    .select({
      id: e.id,
      url: e.url,
      isEnabled: e.isEnabled,
      createdAt: e.createdAt,
      partenaireCode: p.code,
      partenaireDesignation: p.designation,
      pending: count('pending'),
      delivered: count('delivered'),
      dead: count('dead'),
    })
    .from(e)
    .innerJoin(p, eq(p.id, e.partenaireId))
    .leftJoin(d, eq(d.endpointId, e.id))
    .groupBy(e.id, e.url, e.isEnabled, e.createdAt, p.code, p.designation)
    .orderBy(p.designation, e.id);
  return rows.map((r) => ({
    id: Number(r.id),
    partenaire: { code: r.partenaireCode, designation: r.partenaireDesignation },
    url: r.url,
    actif: r.isEnabled,
    createdAt: r.createdAt.toISOString(),
    livraisons: { enAttente: r.pending, livrees: r.delivered, lettresMortes: r.dead },
  }));
}

/** Registers an endpoint; the answer carries its secret, the only time it is ever shown. */
export async function createWebhookEndpoint(
  db: Database,
  actor: SessionUser,
  input: EndpointInput,
): Promise<{ id: number; url: string; partenaire: string; secret: string }> {
  requireAdmin(actor);
  const { webhookEndpoints: e, partenaires: p } = db.t;
  const secret = generateWebhookSecret();
  return db.transaction(async (tx) => {
    const [partner] = await tx.select({ id: p.id }).from(p).where(eq(p.code, input.partenaire)).limit(1);
    if (!partner)
      throw invalid(WEBHOOK_REFUSALS.unknownPartner(input.partenaire), { propertyPath: 'partenaire' });
    const [row] = await tx
      .insert(e)
      .values({ partenaireId: partner.id, url: input.url, secret })
      .returning({ id: e.id, url: e.url });
    return { id: Number(row!.id), url: row!.url, partenaire: input.partenaire, secret };
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
