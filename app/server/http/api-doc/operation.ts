// One declaration per REST operation (docs/decisions/0037-api-documents.md). A route passes `operation(…)`
// as its options: the declaration sets the access flags the perimeter reads (server/http/access.ts) and is
// kept in the route's config, where the OpenAPI and Hydra documents read it. The schemas it names are the
// ones the handler parses with, so the documents cannot describe another contract than the route's.
import type { FastifyContextConfig, RouteShorthandOptions } from 'fastify';
import type { z } from 'zod';

/**
 * Who may call it. `staff`: any logged-in staff member with a full session (the service may still refuse
 * a report that is not theirs); `admin`: administrators (the service decides, a 403 for others);
 * `twoFactorStep`: any session, even one still owing its second factor; `public`: no session; `partner`:
 * a partner API token with the route's scope, never a session (docs/decisions/0051-partner-webhook-endpoints.md).
 */
export type Access = 'public' | 'staff' | 'admin' | 'twoFactorStep' | 'partner';

export interface ApiResponse {
  /** In French, as the reference page shows it. */
  description: string;
  /** The answer's shape; none for an answer without a body (204) or with a file. */
  schema?: z.ZodType;
  /** Default: application/json (application/ld+json is announced too for JSON-LD resources). */
  contentType?: string;
  /** Response headers it sends (name → French description). */
  headers?: Record<string, string>;
}

export interface ApiOperation {
  /** One French sentence. */
  summary: string;
  /** Its Hydra class ('Signalement', 'Partenaire'…): an operation of this class's item or collection. */
  resource?: string;
  /** Whether it acts on the class's collection (list, create) rather than on one item. */
  collection?: boolean;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The body's media type when it is not JSON (an evidence file: application/octet-stream). */
  bodyType?: string;
  /** Request headers it reads (name → French description). */
  headers?: Record<string, { description: string; required?: boolean }>;
  /** Success answers by status; the error answers ({ status, message, violations? }) are added. */
  responses: Record<number, ApiResponse>;
  access: Access;
  /** A create that takes an Idempotency-Key (docs/decisions/0020). */
  idempotent?: boolean;
  /** The partner token scope that opens it (docs/decisions/0038): set from the route's config. */
  scope?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The REST operation's declaration, which the API documents are generated from. */
    operation?: ApiOperation;
  }
}

/** The route options of a REST operation: its declaration and the access flags it implies. */
export function operation(
  op: ApiOperation,
  extra: FastifyContextConfig = {},
  options: Omit<RouteShorthandOptions, 'config'> = {},
): RouteShorthandOptions {
  return {
    ...options,
    config: {
      ...extra,
      operation: extra.scope === undefined ? op : { ...op, scope: extra.scope },
      ...(op.access === 'public' ? { public: true } : {}),
      ...(op.access === 'twoFactorStep' ? { twoFactorStep: true } : {}),
      ...(op.access === 'partner' ? { tokenOnly: true } : {}),
    },
  };
}
