// The partner API token's side of /api/signalements (docs/decisions/0038-partner-api-tokens.md): its list, and
// its create that files for the token's partner and only with an Idempotency-Key.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { signalementCreateSchema } from '#shared/schemas/signalements';
import type { AppContext } from '#server/context';
import type { Database } from '#server/db/client';
import { HttpError } from '#server/errors';
import type { TokenCaller } from '../jetons-api/bearer';
import { partnerReport, partnerReports } from '../jetons-api/partner-reports';
import { restIdempotent } from '../idempotency/doors';
import { IDEMPOTENCY_HEADER, storedAnswer } from '../idempotency/service';
import * as service from './service';

/** A create through a partner API token without its key (docs/decisions/0038): 428 Precondition Required. */
export const TOKEN_IDEMPOTENCY_REQUIRED =
  "En-tête Idempotency-Key obligatoire : un signalement déposé avec un jeton d'API doit porter une clé unique par dépôt, renvoyée telle quelle en cas de nouvel essai.";

/** The partner list's one parameter: the page (30 reports each, newest first). */
const partnerListSchema = z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1) }).strict();

/** The token's partner's reports, one page of them, in their own shape. */
export function listForPartner(
  db: Database,
  query: Record<string, unknown>,
  url: string,
  jeton: TokenCaller,
) {
  const { page } = partnerListSchema.parse(query);
  return partnerReports(db, jeton, page, url);
}

/**
 * A report pushed by a partner's system: filed for the token's partner whatever the body names, and only
 * with an Idempotency-Key (a retry of a lost answer must not file it twice).
 */
export async function createForPartner(
  ctx: AppContext,
  db: Database,
  request: FastifyRequest,
  reply: FastifyReply,
  jeton: TokenCaller,
) {
  if (request.headers[IDEMPOTENCY_HEADER] === undefined) throw new HttpError(428, TOKEN_IDEMPOTENCY_REQUIRED);
  const body = request.body ?? {};
  const input = signalementCreateSchema.parse(
    typeof body === 'object' && !Array.isArray(body)
      ? { ...(body as Record<string, unknown>), partenaire: jeton.partenaireCode }
      : body,
  );
  const created = await restIdempotent(
    ctx,
    request,
    reply,
    input,
    () => service.createSignalement(ctx, request.auth!.user, input),
    storedAnswer,
  );
  const dto = await partnerReport(db, jeton, created.code);
  return reply.code(201).header('location', dto['@id']).send(dto);
}
