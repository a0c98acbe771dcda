import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/client';
import type { Session, SessionUser } from './domains/auth/session';

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
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, for the test that proves each one requires a session. */
    routeList: Array<{ method: string; url: string; public: boolean }>;
  }
  interface FastifyRequest {
    auth: Auth | null;
  }
  interface FastifyContextConfig {
    /** Reachable without a session (login, health, public summary, password set-up). */
    public?: boolean;
  }
}
