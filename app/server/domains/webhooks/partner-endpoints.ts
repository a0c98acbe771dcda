// A partner's own webhook endpoints, managed with its API token (scope `webhooks:manage`, docs/decisions/
// 0051-partner-webhook-endpoints.md): list them, register one (its secret answered once), renew a secret,
// delete one. A token reaches the endpoints its own partner registered only: another partner's, or one an
// administrator registered, is not found, never forbidden, so a token learns nothing of them. An endpoint it
// registers must point to a public HTTPS address unless WEBHOOK_PARTNER_ADDRESSES=any (addresses.ts); each
// partner keeps at most PARTNER_WEBHOOK_MAX_ENDPOINTS; one an administrator disabled is not the token's to
// delete, and freezes new registrations until an administrator re-enables or deletes it.
import { and, count, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { partnerWebhookInputSchema } from '#shared/schemas/webhooks';
import type { AppContext } from '#server/context';
import type { Database } from '#server/db/client';
import { LOCK_SPACE, lockFor } from '#server/db/locks';
import { conflict, invalid, notFound } from '#server/errors';
import type { TokenCaller } from '../jetons-api/bearer';
import { partnerAddressProblem } from './addresses';
import {
  endpointsOf,
  insertEndpoint,
  renewSecret,
  WEBHOOK_REFUSALS,
  type WebhookEndpointDto,
} from './service';

/** Endpoints one partner may keep at once (a token cannot make the worker call a thousand addresses). */
export const PARTNER_WEBHOOK_MAX_ENDPOINTS = 5;

export const PARTNER_WEBHOOK_MESSAGES = {
  tooMany: `Votre organisation a déjà ${PARTNER_WEBHOOK_MAX_ENDPOINTS} points de réception : supprimez-en un avant d'en enregistrer un autre.`,
  frozen:
    "Un administrateur a désactivé un point de réception de votre organisation : contactez l'unité avant d'en enregistrer un autre.",
  disabledByAdmin:
    'Ce point de réception a été désactivé par un administrateur : seul un administrateur peut le supprimer ou le réactiver.',
} as const;

export interface PointDeReceptionDto {
  '@id': string;
  '@type': 'PointDeReception';
  id: number;
  url: string;
  actif: boolean;
  origine: WebhookEndpointDto['origine'];
  createdAt: string;
  ancienSecretJusquA: string | null;
  livraisons: WebhookEndpointDto['livraisons'];
}

export type PointDeReceptionSecretDto = PointDeReceptionDto & { secret: string };

type PartnerContext = Pick<AppContext, 'db' | 'cipher' | 'clock' | 'config'>;

export const pointDeReceptionIri = (id: number) => `/api/webhooks/${id}`;

function dtoOf(endpoint: WebhookEndpointDto): PointDeReceptionDto {
  return {
    '@id': pointDeReceptionIri(endpoint.id),
    '@type': 'PointDeReception',
    id: endpoint.id,
    url: endpoint.url,
    actif: endpoint.actif,
    origine: endpoint.origine,
    createdAt: endpoint.createdAt,
    ancienSecretJusquA: endpoint.ancienSecretJusquA,
    livraisons: endpoint.livraisons,
  };
}

/**
 * The endpoints a token manages: those its partner registered. An administrator's for the same partner (whose
 * address may be on a private network, 0039) are the unit's: not listed, not found, not counted.
 */
async function ownEndpoints(db: Database, jeton: TokenCaller): Promise<WebhookEndpointDto[]> {
  return (await endpointsOf(db, jeton.partenaireId)).filter((e) => e.origine === 'partenaire');
}

export async function listPartnerEndpoints(db: Database, jeton: TokenCaller): Promise<PointDeReceptionDto[]> {
  return (await ownEndpoints(db, jeton)).map(dtoOf);
}

/** One endpoint the token's partner registered; another partner's, an administrator's, or none: not found. */
export async function partnerEndpoint(
  db: Database,
  jeton: TokenCaller,
  id: number,
): Promise<PointDeReceptionDto> {
  const found = (await ownEndpoints(db, jeton)).find((e) => e.id === id);
  if (!found) throw notFound(WEBHOOK_REFUSALS.endpointNotFound);
  return dtoOf(found);
}

/**
 * Registers an endpoint for the token's partner. The count and the insert are one transaction, serialised on
 * the partner (PostgreSQL: an advisory lock; SQLite has one writer), so two registrations at once cannot
 * both take the last place.
 */
export async function createPartnerEndpoint(
  ctx: PartnerContext,
  jeton: TokenCaller,
  input: z.output<typeof partnerWebhookInputSchema>,
): Promise<PointDeReceptionSecretDto> {
  const problem = partnerAddressProblem(new URL(input.url), ctx.config.WEBHOOK_PARTNER_ADDRESSES);
  if (problem) throw invalid(problem, { propertyPath: 'url' });
  const { db } = ctx;
  const e = db.t.webhookEndpoints;
  const created = await db.transaction(async (tx) => {
    await lockFor(db, tx, LOCK_SPACE.partnerWebhooks, jeton.partenaireId);
    const [held] = await tx
      .select({
        n: count(),
        disabled: sql<number>`coalesce(sum(case when ${e.isEnabled} then 0 else 1 end), 0)`.mapWith(Number),
      })
      .from(e)
      .where(and(eq(e.partenaireId, jeton.partenaireId), eq(e.origin, 'partenaire')));
    // An administrator's « Désactiver » stands: the token does not get around it with a new endpoint.
    if ((held?.disabled ?? 0) > 0) throw conflict(PARTNER_WEBHOOK_MESSAGES.frozen);
    if (Number(held?.n ?? 0) >= PARTNER_WEBHOOK_MAX_ENDPOINTS)
      throw conflict(PARTNER_WEBHOOK_MESSAGES.tooMany);
    return insertEndpoint(ctx, jeton.partenaireId, input.url, 'partenaire');
  });
  return { ...(await partnerEndpoint(db, jeton, created.id)), secret: created.secret };
}

/** « Renouveler le secret » for the partner's own endpoint (the same grace period as an administrator's). */
export async function renewPartnerSecret(
  ctx: PartnerContext,
  jeton: TokenCaller,
  id: number,
): Promise<PointDeReceptionSecretDto> {
  await partnerEndpoint(ctx.db, jeton, id);
  const renewed = await renewSecret(ctx, id, jeton.partenaireId);
  return { ...(await partnerEndpoint(ctx.db, jeton, id)), secret: renewed.secret };
}

/**
 * Deletes the partner's own endpoint and its deliveries; one an administrator disabled stays (409): deleting
 * it would lift the freeze on new registrations.
 */
export async function deletePartnerEndpoint(db: Database, jeton: TokenCaller, id: number): Promise<void> {
  const e = db.t.webhookEndpoints;
  const mine = and(eq(e.id, id), eq(e.partenaireId, jeton.partenaireId), eq(e.origin, 'partenaire'));
  await db.transaction(async (tx) => {
    const [row] = await tx.select({ isEnabled: e.isEnabled }).from(e).where(mine);
    if (!row) throw notFound(WEBHOOK_REFUSALS.endpointNotFound);
    if (!row.isEnabled) throw conflict(PARTNER_WEBHOOK_MESSAGES.disabledByAdmin);
    await tx.delete(e).where(and(mine, eq(e.isEnabled, true)));
  });
}
