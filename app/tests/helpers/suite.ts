// The server-suite fixture: one test app per file and engine, with an administrator and an agent signed
// in, for the files that otherwise copy the same beforeAll. Built on createTestApp (tests/helpers/app.ts).
import { afterAll, beforeAll } from 'vitest';
import type { Engine } from '#server/db/client';
import { createTestApp, type TestApp, type TestAppOptions } from './app';

export interface Person {
  email: string;
  nomPrenom: string;
  roleCode: string;
}

/** An account the fixture created (with TEST_PASSWORD) and signed in. */
export interface Account extends Person {
  /** The user's code (utilisateurs.code). */
  code: string;
  /** The Cookie header value of its full session (the administrator's second factor is enrolled). */
  cookie: string;
}

export interface ServerSuite {
  app: TestApp;
  admin: Account;
  user: Account;
}

export interface ServerSuiteOptions {
  /** Adds to or overrides the app's environment (createTestApp's `env`). */
  env?: Record<string, string>;
  options?: TestAppOptions;
  /** Defaults: admin@example.mg, ROLE_ADMIN, « Rasoa Admin ». */
  admin?: Partial<Person>;
  /** Defaults: agent@example.mg, ROLE_USER, « Rabe Hery ». */
  user?: Partial<Person>;
}

export const SUITE_ADMIN: Person = {
  email: 'admin@example.mg',
  nomPrenom: 'Rasoa Admin',
  roleCode: 'ROLE_ADMIN',
};
export const SUITE_USER: Person = {
  email: 'agent@example.mg',
  nomPrenom: 'Rabe Hery',
  roleCode: 'ROLE_USER',
};

/**
 * Call in the describe block of one engine (describe.each(await testEngines())): the app is created in a
 * beforeAll registered here, before the file's own hooks (which may use it), the administrator then the
 * agent are created and signed in, and the app is closed after the file's own afterAll hooks. The
 * returned objects may be destructured at once: `app` forwards to the test app once it exists, and
 * `admin` and `user` are filled in place.
 */
export function serverSuite(engine: Engine, settings: ServerSuiteOptions = {}): ServerSuite {
  let current: TestApp | undefined;
  const app = new Proxy({} as TestApp, {
    get(_target, key) {
      if (!current) throw new Error('serverSuite : application pas encore créée (beforeAll)');
      const value: unknown = Reflect.get(current, key);
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
  const admin = { ...SUITE_ADMIN, ...settings.admin, code: '', cookie: '' };
  const user = { ...SUITE_USER, ...settings.user, code: '', cookie: '' };
  beforeAll(async () => {
    current = await createTestApp(engine, settings.env, settings.options);
    for (const account of [admin, user]) {
      account.code = await current.user(account.email, account.roleCode, account.nomPrenom);
    }
    for (const account of [admin, user]) account.cookie = await current.login(account.email);
  });
  afterAll(async () => {
    await current?.close();
  });
  return { app, admin, user };
}
