import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateHOTP, generateTOTP } from '@oslojs/otp';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '#server/app';
import { loadConfig, type Config } from '#server/config';
import { createAppContext, type AppContext, type Clock } from '#server/context';
import { formatDataKey } from '#server/crypto/cipher';
import { verifierOf } from '#server/crypto/data-key';
import { syncBusinessCalendar } from '#server/db/business-calendar';
import type { Database, Engine } from '#server/db/client';
import { seed } from '#server/db/seed/index';
import type { SessionUser } from '#server/domains/auth/session';
import { createUser } from '#server/domains/utilisateurs/service';
import { validateAnswers, type AnswerValidation } from './answer-validation';
import { createTestDatabase, type TestDatabase } from './db';

export const TEST_PASSWORD = 'mot-de-passe-de-test-42';

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  config: Config;
  /** The app's context (server/context.ts): its cipher, journal settings, task threads. */
  ctx: AppContext;
  /** The data key of `db` (tests of the key's rotation). */
  dataKey: Buffer;
  /** Creates a user with TEST_PASSWORD and returns its code. */
  user(email: string, roleCode?: string, nomPrenom?: string): Promise<string>;
  /**
   * Logs in through the REST facade and returns the Cookie header value of a full session: when the
   * account owes a second factor, enrols it (first time) or sends a code, as a person would.
   */
  login(email: string, password?: string): Promise<string>;
  /** Logs in with the password only: the session may still owe its second factor. */
  loginPasswordOnly(email: string, password?: string): Promise<{ cookie: string; twoFactor: string | null }>;
  /** Enrols the session's user in two-factor log-in (with their password); returns the recovery codes. */
  enrolTwoFactor(email: string, cookie: string, password?: string): Promise<string[]>;
  /**
   * A TOTP code of a user enrolled through this helper that the server has not accepted yet: the
   * current step's, or the next one's when this helper already handed out the current one (a code
   * works once). Throws when both were handed out within this 30-second step.
   */
  totp(email: string): string;
  /** The TOTP code of another 30-second step: `steps` = -1 for the previous one, +3 for 90 s later. */
  totpAtStep(email: string, steps: number): string;
  /** One unused recovery code of a user enrolled through this helper (each is handed out once). */
  recoveryCode(email: string): string;
  /** The answers checked against the OpenAPI document (answer-validation.ts); close() fails on a mismatch. */
  answers: AnswerValidation;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Runs on the built app before `ready`, e.g. to register a route the way a new module would. */
  beforeReady?(app: FastifyInstance): void | Promise<void>;
  /**
   * Threads of the read tasks. Default: one where the server would have some (SQLite with reader
   * threads), so that the suites run the production path; 0 runs the tasks on the main thread.
   */
  taskThreads?: number;
  /** The services' clock (default: the system's); a test that moves time passes its own. */
  clock?: Clock;
}

/**
 * Closes what a test app holds: its app, its task threads, its database. Each step even when one before it
 * fails: the next test file of this process (README « Test ») must not find them still there.
 */
async function release(app: FastifyInstance | undefined, ctx: AppContext | undefined, tdb: TestDatabase) {
  try {
    await app?.close();
  } finally {
    try {
      await ctx?.tasks?.close();
    } finally {
      await tdb.drop();
    }
  }
}

export async function createTestApp(
  engine: Engine,
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const tdb = await createTestDatabase(engine);
  const { app, answers, ctx, config } = await (async () => {
    let built: FastifyInstance | undefined;
    let ctx: AppContext | undefined;
    try {
      await seed(tdb.db);
      // As the server's first start leaves it: a verifier of the key in use (the health check reads it).
      await tdb.db.transaction((tx) =>
        tx.insert(tdb.db.t.dataKeyCheck).values({ verifier: verifierOf(tdb.cipher) }),
      );
      const config = loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: tdb.url, TRUST_PROXY: 'true', ...env });
      // As the server's start does: the database's day counts follow APP_TIMEZONE (a no-op for the default).
      await syncBusinessCalendar(tdb.db, config.APP_TIMEZONE);
      ctx = createAppContext(config, {
        db: tdb.db,
        cipher: tdb.cipher,
        taskThreads: options.taskThreads ?? Math.min(1, tdb.db.readThreads),
        ...(options.clock ? { clock: options.clock } : {}),
        // Threads read the test's own key, as the server's read the configured one.
        keySettings: { ...config, DATA_KEY: formatDataKey(tdb.dataKey) },
      });
      built = await buildApp({ ctx, webRoot: env.WEB_ROOT });
      const checked = validateAnswers(built);
      await options.beforeReady?.(built);
      await built.ready();
      return { app: built, answers: checked, ctx, config };
    } catch (error) {
      // Nothing of a test app that did not start (its seed, its app or its threads) is left to the next
      // file of this process.
      await release(built, ctx, tdb).catch(() => undefined);
      throw error;
    }
  })();
  const keys = new Map<string, Uint8Array>();
  /** The last TOTP step handed out per user: the server accepts each step once, in increasing order. */
  const handedSteps = new Map<string, number>();
  const stepNow = () => Math.floor(Date.now() / 30_000);
  /**
   * The helper's own log-ins (login, enrolTwoFactor) are fixtures, not what a test proves: before and
   * after their code they set the user's last accepted step back as if 30 seconds had passed, so a test
   * logs in as often as it likes and its own codes (totp) still work.
   */
  const forgetSteps = async (email: string) => {
    handedSteps.delete(email.toLowerCase());
    const { twoFactorKeys: k, utilisateurs: u } = tdb.db.t;
    const users = tdb.db.read.select({ id: u.id }).from(u).where(eq(u.email, email.toLowerCase()));
    await tdb.db.transaction((tx) =>
      tx.update(k).set({ lastUsedStep: null }).where(inArray(k.userId, users)),
    );
  };
  const spareCodes = new Map<string, string[]>();
  const trpcCall = async (path: string, cookie: string, payload: object = {}) => {
    const res = await app.inject({
      method: 'POST',
      url: `/trpc/${path}`,
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
      payload,
    });
    if (res.statusCode !== 200) throw new Error(`${path} failed: ${res.statusCode} ${res.body}`);
    return res.json().result.data;
  };
  const helper: TestApp = {
    app,
    db: tdb.db,
    config,
    ctx,
    dataKey: tdb.dataKey,
    answers,
    async user(email, roleCode = 'ROLE_USER', nomPrenom = 'Rakoto Jean') {
      const created = await createUser(tdb.db, { email, nomPrenom, roleCode, password: TEST_PASSWORD });
      return created.code;
    },
    async loginPasswordOnly(email, password = TEST_PASSWORD) {
      const res = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
      if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
      return { cookie: sessionCookie(res), twoFactor: res.json().twoFactor };
    },
    async login(email, password = TEST_PASSWORD) {
      const { cookie, twoFactor } = await helper.loginPasswordOnly(email, password);
      if (twoFactor === 'enrol') await helper.enrolTwoFactor(email, cookie, password);
      if (twoFactor === 'verify') {
        await forgetSteps(email);
        await trpcCall('twoFactor.verify', cookie, { code: helper.totp(email) });
        await forgetSteps(email);
      }
      return cookie;
    },
    async enrolTwoFactor(email, cookie, password = TEST_PASSWORD) {
      const { secret } = await trpcCall('twoFactor.setup', cookie);
      const bytes = decodeBase32IgnorePadding(secret);
      const { recoveryCodes } = await trpcCall('twoFactor.enrol', cookie, {
        password,
        code: generateTOTP(bytes, 30, 6),
      });
      keys.set(email.toLowerCase(), bytes);
      spareCodes.set(email.toLowerCase(), [...recoveryCodes]);
      await forgetSteps(email);
      return recoveryCodes;
    },
    totp(email) {
      const key = keys.get(email.toLowerCase());
      if (!key) throw new Error(`no TOTP key for ${email}`);
      const step = Math.max(stepNow(), (handedSteps.get(email.toLowerCase()) ?? -Infinity) + 1);
      if (step > stepNow() + 1)
        throw new Error(`no unused TOTP code left for ${email} in this 30-second step`);
      handedSteps.set(email.toLowerCase(), step);
      return generateHOTP(key, BigInt(step), 6);
    },
    totpAtStep(email, steps) {
      const key = keys.get(email.toLowerCase());
      if (!key) throw new Error(`no TOTP key for ${email}`);
      return generateHOTP(key, BigInt(Math.floor(Date.now() / 30_000) + steps), 6);
    },
    recoveryCode(email) {
      const code = spareCodes.get(email.toLowerCase())?.shift();
      if (!code) throw new Error(`no recovery code left for ${email}`);
      return code;
    },
    async close() {
      await release(app, ctx, tdb);
      if (answers.mismatches.length > 0) {
        throw new Error(`Réponses hors du document OpenAPI :\n${answers.mismatches.join('\n')}`);
      }
    },
  };
  return helper;
}

export function sessionCookie(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'session');
  if (!cookie) throw new Error('no session cookie');
  return `session=${cookie.value}`;
}

/** A user as a session gives it (an agent's role, no second factor), for a service called directly. */
export async function sessionUserOf(t: Pick<TestApp, 'db'>, email: string): Promise<SessionUser> {
  const u = t.db.t.utilisateurs;
  const [row] = await t.db.read.select().from(u).where(eq(u.email, email));
  if (!row) throw new Error(`sessionUserOf : pas d’utilisateur ${email}`);
  return {
    id: row.id,
    code: row.code,
    email: row.email,
    nomPrenom: row.nomPrenom,
    isEnabled: true,
    lastConnectionAt: null,
    role: { code: 'ROLE_USER', designation: 'Utilisateur' },
    twoFactorEnrolled: false,
  };
}
