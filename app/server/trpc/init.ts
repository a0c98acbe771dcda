import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { ROLE_ADMIN } from '#shared/constants';
import type { RequestContext } from '../context';
import { retryableFault } from '../db/connection-lost';
import { answerFields, DomainError, domainErrorOf, MESSAGES, TRPC_CODE } from '../errors';
import { twoFactorStep } from '../domains/auth/two-factor-step';
import { refuseHostileInput } from '../http/input-guard';

/**
 * What a procedure declares about itself. Nothing declared means: a session is required, the
 * call may be batched. `public` is the only way out of the session check (deny by default).
 */
export interface ProcedureMeta {
  /** Reachable without a session. */
  public?: boolean;
  /** Refused inside a batch (log-in: one password per request). */
  solo?: boolean;
  /** Counted against the public look-up limit (per address and global), every call of a batch. */
  publicLookup?: boolean;
  /**
   * Reachable by a session that still owes its second factor (code or enrolment). Nothing declared:
   * such a session is refused with 403 (docs/decisions/0016-two-factor.md).
   */
  twoFactorStep?: boolean;
}

/** tRPC's own messages (malformed batch, unknown procedure, bad JSON…) are English: answer in French. */
const FRENCH_BY_CODE: Partial<Record<string, string>> = {
  PARSE_ERROR: MESSAGES.invalidRequest,
  BAD_REQUEST: MESSAGES.invalidRequest,
  NOT_FOUND: MESSAGES.notFound,
  METHOD_NOT_SUPPORTED: MESSAGES.methodNotAllowed,
  PAYLOAD_TOO_LARGE: MESSAGES.payloadTooLarge,
  UNSUPPORTED_MEDIA_TYPE: MESSAGES.unsupportedMediaType,
  TOO_MANY_REQUESTS: MESSAGES.tooManyRequests,
  UNAUTHORIZED: MESSAGES.unauthenticated,
  FORBIDDEN: MESSAGES.forbidden,
};

const t = initTRPC
  .context<RequestContext>()
  .meta<ProcedureMeta>()
  .create({
    errorFormatter({ shape, error }) {
      const zod = error.cause instanceof ZodError ? error.cause : null;
      const ours = error.cause instanceof DomainError;
      const message =
        error.code === 'INTERNAL_SERVER_ERROR'
          ? MESSAGES.internal
          : zod
            ? (zod.issues[0]?.message ?? MESSAGES.invalid)
            : ours
              ? shape.message
              : (FRENCH_BY_CODE[error.code] ?? MESSAGES.invalidRequest);
      return {
        ...shape,
        message,
        data: {
          code: shape.data.code,
          httpStatus: shape.data.httpStatus,
          fieldErrors: zod ? zod.flatten().fieldErrors : undefined,
          // An edit conflict's version and values (docs/decisions/0047-edit-conflicts.md).
          details: error.cause instanceof DomainError ? answerFields(error.cause) : undefined,
        },
      };
    },
  });

/** Domain errors become tRPC errors with the same French message; others are logged as 500s. */
const mapErrors = t.middleware(async ({ ctx, next, path }) => {
  const result = await next();
  if (!result.ok) {
    let cause = domainErrorOf(result.error.cause) ?? result.error.cause;
    const fault = retryableFault(cause);
    if (fault) {
      // The database cannot answer now: 503, to be tried again (docs/decisions/0019-durability.md).
      ctx.req.log.warn({ err: cause, path }, fault.log);
      cause = fault.answer;
    }
    if (cause instanceof DomainError) {
      if (cause.kind === 'unreadable')
        ctx.req.log.error({ details: cause.details, path }, 'stored value unreadable');
      throw new TRPCError({ code: TRPC_CODE[cause.kind], message: cause.message, cause });
    }
    if (result.error.code === 'INTERNAL_SERVER_ERROR') {
      ctx.req.log.error({ err: result.error.cause ?? result.error, path }, 'tRPC procedure failed');
    }
  }
  return result;
});

/**
 * Every procedure passes here before its input is parsed: the session check (deny by default,
 * decided on the procedure's own meta), the batch rule, the public look-up limit (counted before
 * any work), and the refusal of bytes no engine stores alike (NUL, lone surrogates).
 */
const perimeter = t.middleware(async ({ ctx, meta, next, getRawInput }) => {
  if (!meta?.public && !ctx.auth) throw new DomainError('unauthenticated', MESSAGES.unauthenticated);
  if (meta?.solo && ctx.batchSize > 1) {
    throw new DomainError('invalid', MESSAGES.notBatchable);
  }
  if (!meta?.public && !meta?.twoFactorStep && ctx.auth && twoFactorStep(ctx.auth, ctx.config) !== null) {
    throw new DomainError('forbidden', MESSAGES.twoFactorRequired);
  }
  if (meta?.publicLookup) await ctx.publicLookups.take(ctx.req.ip);
  refuseHostileInput(await getRawInput());
  return next();
});

const base = t.procedure.use(mapErrors).use(perimeter);

export const router = t.router;
/** A procedure reachable without a session: the only builder that declares `public`. */
export const publicProcedure = base.meta({ public: true });

export const authedProcedure = base.use(({ ctx, meta, next }) => {
  if (!ctx.auth) throw new DomainError('unauthenticated', MESSAGES.unauthenticated);
  // Checked again here (the perimeter already did): a session owing its second factor is denied by default.
  if (!meta?.twoFactorStep && twoFactorStep(ctx.auth, ctx.config) !== null) {
    throw new DomainError('forbidden', MESSAGES.twoFactorRequired);
  }
  return next({ ctx: { ...ctx, auth: ctx.auth } });
});

export const adminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.auth.user.role.code !== ROLE_ADMIN) throw new DomainError('forbidden', MESSAGES.forbidden);
  return next();
});

export const createCallerFactory = t.createCallerFactory;
