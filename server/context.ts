import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/client';
import type { Session, SessionUser } from './domains/auth/session';
import type { PublicLookupLimiter } from './http/public-limit';

export interface Auth {
  session: Session;
  user: SessionUser;
}

/** What every tRPC procedure and REST handler gets: the same services, the same session. */
export interface AppContext {
  db: Database;
  config: Config;
  req: FastifyRequest;
  res: FastifyReply;
  auth: Auth | null;
  /** Calls in this HTTP request (1 unless batched). */
  batchSize: number;
  publicLookups: PublicLookupLimiter;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, for the test that proves each one requires a session. */
    routeList: Array<{ method: string; url: string; readonly config: FastifyContextConfig }>;
    /** Public look-up counters (per address and global). */
    publicLookups: PublicLookupLimiter;
  }
  interface FastifyRequest {
    auth: Auth | null;
  }
  interface FastifyContextConfig {
    /** Reachable without a session (login, health, public summary, password set-up). Nothing declared: private. */
    public?: boolean;
    /** The tRPC endpoint: each procedure decides from its own meta (deny by default there too). */
    procedures?: boolean;
    /** A file of the built client (static, no session, no database work). */
    clientFile?: boolean;
    /** A GET with an effect (spec §7's reset-password): same-origin check as for writes. */
    effectfulGet?: boolean;
    /** Counted against the public look-up limit before the handler runs. */
    publicLookup?: boolean;
    /**
     * Reachable by a session whose second factor is still owed (who-am-i, log-out, the code itself).
     * Nothing declared: such a session gets 403 (docs/decisions/0016-two-factor.md).
     */
    twoFactorStep?: boolean;
  }
}
