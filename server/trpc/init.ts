import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { ROLE_ADMIN } from '../../shared/constants';
import type { AppContext } from '../context';
import { DomainError, MESSAGES, TRPC_CODE } from '../errors';

const t = initTRPC.context<AppContext>().create({
  errorFormatter({ shape, error }) {
    const zod = error.cause instanceof ZodError ? error.cause : null;
    const message =
      error.code === 'INTERNAL_SERVER_ERROR'
        ? MESSAGES.internal
        : zod
          ? (zod.issues[0]?.message ?? MESSAGES.invalid)
          : shape.message;
    return {
      ...shape,
      message,
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        fieldErrors: zod ? zod.flatten().fieldErrors : undefined,
      },
    };
  },
});

/** Domain errors become tRPC errors with the same French message; others are logged as 500s. */
const mapErrors = t.middleware(async ({ ctx, next, path }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    if (cause instanceof DomainError) {
      throw new TRPCError({ code: TRPC_CODE[cause.kind], message: cause.message, cause });
    }
    if (result.error.code === 'INTERNAL_SERVER_ERROR') {
      ctx.req.log.error({ err: result.error.cause ?? result.error, path }, 'tRPC procedure failed');
    }
  }
  return result;
});

export const router = t.router;
export const publicProcedure = t.procedure.use(mapErrors);

export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.auth) throw new TRPCError({ code: 'UNAUTHORIZED', message: MESSAGES.unauthenticated });
  return next({ ctx: { ...ctx, auth: ctx.auth } });
});

export const adminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.auth.user.role.code !== ROLE_ADMIN) {
    throw new TRPCError({ code: 'FORBIDDEN', message: MESSAGES.forbidden });
  }
  return next();
});

export const createCallerFactory = t.createCallerFactory;
