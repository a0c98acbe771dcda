// A partner's own webhook endpoints, managed with its API token (scope `webhooks:manage`, docs/decisions/
// 0051-partner-webhook-endpoints.md): list them, register one (its secret answered once), renew a secret,
// delete one. A token reaches its own partner's endpoints only: another partner's is not found, never
// forbidden, so a token learns nothing of the others. An endpoint it registers must point to a public HTTPS
// address unless WEBHOOK_PARTNER_ADDRESSES=any (addresses.ts); each partner keeps at most
// PARTNER_WEBHOOK_MAX_ENDPOINTS.
import { and, count, eq } from 'drizzle-orm';
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

export async function listPartnerEndpoints(db: Database, jeton: TokenCaller): Promise<PointDeReceptionDto[]> {
  return (await endpointsOf(db, jeton.partenaireId)).map(dtoOf);
}

/** One endpoint of the token's partner; another partner's, or none, is not found. */
export async function partnerEndpoint(
  db: Database,
  jeton: TokenCaller,
  id: number,
): Promise<PointDeReceptionDto> {
  const found = (await endpointsOf(db, jeton.partenaireId)).find((e) => e.id === id);
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
    const [held] = await tx.select({ n: count() }).from(e).where(eq(e.partenaireId, jeton.partenaireId));
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
  const renewed = await renewSecret(ctx, id, jeton.partenaireId);
  return { ...(await partnerEndpoint(ctx.db, jeton, id)), secret: renewed.secret };
}

/** Deletes the partner's own endpoint and its deliveries. */
export async function deletePartnerEndpoint(db: Database, jeton: TokenCaller, id: number): Promise<void> {
  const e = db.t.webhookEndpoints;
  const [row] = await db.transaction((tx) =>
    tx
      .delete(e)
      .where(and(eq(e.id, id), eq(e.partenaireId, jeton.partenaireId)))
      .returning({ id: e.id }),
  );
  if (!row) throw notFound(WEBHOOK_REFUSALS.endpointNotFound);
}
