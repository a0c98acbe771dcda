import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import type { Database, Engine } from '../../server/db/client';
import { seed } from '../../server/db/seed/index';
import { createUser } from '../../server/domains/utilisateurs/service';
import { createTestDatabase } from './db';

export const TEST_PASSWORD = 'mot-de-passe-de-test-42';

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  config: Config;
  /** Creates a user with TEST_PASSWORD and returns its code. */
  user(email: string, roleCode?: string, nomPrenom?: string): Promise<string>;
  /** Logs in through the REST facade and returns the Cookie header value. */
  login(email: string, password?: string): Promise<string>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Runs on the built app before `ready`, e.g. to register a route the way a new module would. */
  beforeReady?(app: FastifyInstance): void | Promise<void>;
}

export async function createTestApp(
  engine: Engine,
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const tdb = await createTestDatabase(engine);
  await seed(tdb.db);
  const config = loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: tdb.url, TRUST_PROXY: 'true', ...env });
  const app = await buildApp({ config, db: tdb.db, webRoot: env.WEB_ROOT });
  await options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    db: tdb.db,
    config,
    async user(email, roleCode = 'ROLE_USER', nomPrenom = 'Rakoto Jean') {
      const created = await createUser(tdb.db, { email, nomPrenom, roleCode, password: TEST_PASSWORD });
      return created.code;
    },
    async login(email, password = TEST_PASSWORD) {
      const res = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
      if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
      return sessionCookie(res);
    },
    async close() {
      await app.close();
      await tdb.drop();
    },
  };
}

export function sessionCookie(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'session');
  if (!cookie) throw new Error('no session cookie');
  return `session=${cookie.value}`;
}
