// The two doors of an idempotent create: REST reads the Idempotency-Key header of its request; tRPC the
// header of its HTTP request, which must then carry this one operation only (a batch shares its headers).
// A repeat answers like the first time, with `Idempotent-Replayed: true`, read again under today's rights.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Auth, RequestContext, Services } from '#server/context';
import { DomainError } from '#server/errors';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_MESSAGES, idempotent, type Reread } from './service';

export const REPLAYED_HEADER = 'idempotent-replayed';

export async function restIdempotent<T>(
  ctx: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  input: unknown,
  create: () => Promise<T>,
  reread: Reread<T>,
): Promise<T> {
  const scope = `${request.method} ${request.routeOptions.url}`;
  const { result, replayed } = await idempotent(
    ctx,
    { key: request.headers[IDEMPOTENCY_HEADER], user: request.auth!.user, scope, input },
    create,
    reread,
  );
  if (replayed) reply.header(REPLAYED_HEADER, 'true');
  return result;
}

export async function trpcIdempotent<T>(
  ctx: RequestContext & { auth: Auth },
  procedure: string,
  input: unknown,
  create: () => Promise<T>,
  reread: Reread<T>,
): Promise<T> {
  const key = ctx.req.headers[IDEMPOTENCY_HEADER];
  if (key !== undefined && ctx.batchSize > 1) throw new DomainError('invalid', IDEMPOTENCY_MESSAGES.batched);
  const { result, replayed } = await idempotent(
    ctx,
    { key, user: ctx.auth.user, scope: `trpc ${procedure}`, input },
    create,
    reread,
  );
  if (replayed) ctx.res.header(REPLAYED_HEADER, 'true');
  return result;
}
