// Browser tests drive Debian's Chromium (never a downloaded browser) through playwright-core against
// the real built client served by a real server on a fresh SQLite database. The accounts' passwords and
// how they sign in (the second factor included) are in sign-in.ts.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** A browser context's cookies and local storage (playwright's BrowserContext.storageState()). */
export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { createUser } from '#server/domains/utilisateurs/service';
import type { Clock } from '#server/context';
import { start, type Running } from '#server/start';
import { ADMIN, forgetAccounts, PASSWORD, signInByApi, useServerDatabase } from './sign-in';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
export interface E2E {
  running: Running;
  baseUrl: string;
  browser: Browser;
  /**
   * A new browser context and page; console errors and failed page loads are collected. The browser
   * runs in Madagascar's time zone and the fr-FR locale unless told otherwise. With `signedInAs`, the
   * context starts with that account's session (see signedInState), second factor passed.
   */
  newPage(options?: {
    width?: number;
    height?: number;
    timezoneId?: string;
    locale?: string;
    signedInAs?: { email: string; password: string };
    /**
     * The built client registers its service worker (docs/decisions/0049-installable-offline-shell.md),
     * which downloads the whole shell at install: blocked unless a test is about it, so that the other
     * tests' pages load what they show and nothing more, as they did before it.
     */
    serviceWorkers?: 'allow' | 'block';
  }): Promise<Page>;
  /**
   * The cookies of a session of this account, opened once per file through the REST log-in
   * (signInByApi) and shared by every context asking for it: a log-in hashes the password with
   * argon2 and passes the second factor, which a test that does not test the log-in need not repeat.
   * Only for an account whose sessions no test of the file ends (log-out, disabling, new password).
   */
  signedInState(email: string, password: string): Promise<StorageState>;
  /** Creates a user with PASSWORD. */
  user(email: string, roleCode: string, nomPrenom: string): Promise<void>;
  /**
   * Console errors matching `pattern` no longer fail the test, until the next assertNoConsoleErrors().
   * For an expected failed request (a 404 the page shows as 'non trouvé'), which the browser logs itself.
   * Returns the console errors it let through, as they come (to check that the expected one came).
   */
  allowConsoleErrors(pattern: RegExp): string[];
  /** Fails the test when the pages showed console errors or uncaught exceptions. */
  assertNoConsoleErrors(): void;
  close(): Promise<void>;
}

/**
 * The browser fixture of a test file: call it in the describe block. Its server and browser start
 * before the file's own beforeAll hooks (which may use the returned object) and close after every other
 * afterAll hook; each test fails when a page it opened with newPage() showed a console error or an
 * uncaught exception. `env` is read when the server starts, so it may name what an earlier beforeAll
 * started (e.g. SMTP_URL of a test SMTP server).
 */
export function useE2E(
  env: Record<string, string> | (() => Record<string, string>) = {},
  options: {
    /**
     * Closes after each test the contexts its test opened with newPage() (not those of beforeAll hooks),
     * so a page left open does not keep polling the server through the next tests.
     */
    closeTestPages?: boolean;
    /** The server's clock (a movableClock() the test moves); the system's by default. */
    clock?: Clock;
  } = {},
): E2E {
  const e = {} as E2E;
  let testContexts: BrowserContext[] | undefined;
  beforeAll(async () => {
    Object.assign(e, await startE2E(typeof env === 'function' ? env() : env, options.clock));
    if (options.closeTestPages) {
      const newPage = e.newPage.bind(e);
      e.newPage = async (pageOptions) => {
        const page = await newPage(pageOptions);
        testContexts?.push(page.context());
        return page;
      };
    }
  });
  beforeEach(() => {
    if (options.closeTestPages) testContexts = [];
  });
  afterEach(async () => {
    try {
      if (e.assertNoConsoleErrors) e.assertNoConsoleErrors();
    } finally {
      for (const context of testContexts?.splice(0) ?? []) await context.close().catch(() => undefined);
      testContexts = undefined;
    }
  });
  afterAll(async () => {
    if (e.close) await e.close();
  });
  return e;
}

/** The toasts of the page showing this text. */
export const toast = (page: Page, text: string | RegExp) =>
  page.getByTestId('toast').filter({ hasText: text });

/**
 * `env` adds to or overrides the server's environment (e.g. SMTP_URL of a test SMTP server); `clock`, the
 * server's clock.
 */
export async function startE2E(env: Record<string, string> = {}, clock?: Clock): Promise<E2E> {
  if (!existsSync(resolve(import.meta.dirname, '../../dist/web/index.html'))) {
    throw new Error('Client non construit : lancez « npm run build » avant les tests navigateur.');
  }
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} absent : apt-get install chromium`);
  forgetAccounts();
  const server = await startServer(env, clock);
  const { running } = server;
  // A browser that does not start leaves no server behind: the next file of this process would share
  // the process with it (its threads, its workers, its port).
  const browser = await chromium
    .launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
    .catch(async (error: unknown) => {
      await server.close().catch(() => undefined);
      throw error;
    });
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];
  const allowed: Array<{ pattern: RegExp; seen: string[] }> = [];
  const failedResponses: string[] = [];
  const states = new Map<string, Promise<StorageState>>();
  function signedInState(email: string, password: string): Promise<StorageState> {
    const key = email.toLowerCase();
    let state = states.get(key);
    if (!state) {
      state = (async () => {
        const context = await browser.newContext({ baseURL: running.url, serviceWorkers: 'block' });
        try {
          const page = await context.newPage();
          await signInByApi(page, email, password);
          return await context.storageState();
        } finally {
          await context.close();
        }
      })();
      states.set(key, state);
      // A failed log-in is not kept: the next test asking for it tries again (and fails on its own).
      state.catch(() => states.delete(key));
    }
    return state;
  }

  return {
    running,
    baseUrl: running.url,
    browser,
    async newPage({
      width = 1280,
      height = 800,
      timezoneId = 'Indian/Antananarivo',
      locale = 'fr-FR',
      signedInAs,
      serviceWorkers = 'block',
    } = {}) {
      const context = await browser.newContext({
        serviceWorkers,
        viewport: { width, height },
        locale,
        timezoneId,
        baseURL: running.url,
        storageState: signedInAs ? await signedInState(signedInAs.email, signedInAs.password) : undefined,
      });
      contexts.push(context);
      const page = await context.newPage();
      page.on('console', (msg) => {
        // Without a session the client asks auth.session, which answers null: a 401 is an error like any
        // other (no console error on a visit, README « Test »).
        const text = msg.text();
        if (msg.type() !== 'error') return;
        const allowance = allowed.find(({ pattern }) => pattern.test(text));
        if (allowance) allowance.seen.push(text);
        else errors.push(text);
      });
      page.on('pageerror', (error) => errors.push(String(error)));
      // Chromium's 'Failed to load resource' message does not say which resource: record the
      // failing responses too, so a failure names its URL.
      page.on('response', (response) => {
        const status = response.status();
        if (status >= 400 && !allowed.some(({ pattern }) => pattern.test(`${status} ${response.url()}`))) {
          failedResponses.push(`${status} ${response.request().method()} ${response.url()}`);
        }
      });
      return page;
    },
    signedInState,
    async user(email, roleCode, nomPrenom) {
      await createUser(running.db, { email, roleCode, nomPrenom, password: PASSWORD });
    },
    allowConsoleErrors(pattern) {
      const seen: string[] = [];
      allowed.push({ pattern, seen });
      return seen;
    },
    assertNoConsoleErrors() {
      const seen = errors.splice(0);
      const responses = failedResponses.splice(0);
      expect(seen, `erreurs console (réponses en échec : ${responses.join(', ') || 'aucune'})`).toEqual([]);
      allowed.splice(0);
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close();
      await server.close();
    },
  };
}

/**
 * A real server on a fresh SQLite database of its own (a temporary folder removed on close), with
 * the ADMIN account. `env` adds to or overrides its environment; `clock` is its services' clock.
 */
export async function startServer(
  env: Record<string, string> = {},
  clock?: Clock,
): Promise<{ running: Running; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'signalements-e2e-'));
  const running = await start(
    {
      DATABASE_URL: `file:${join(dir, 'e2e.db')}`,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      PUBLIC_URL: 'http://127.0.0.1',
      ...env,
    },
    { clock },
  );
  useServerDatabase(running.db);
  return {
    running,
    async close() {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Creates a report through the REST facade with the page's session (same-origin, as the client does) and
 * returns its code. `overrides` replace the defaults (partner IVY, subject Corruption, telephone, 10/03/2025).
 */
export async function createReportByApi(
  page: Page,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const res = await page.request.post('/api/signalements', {
    headers: { 'sec-fetch-site': 'same-origin' },
    data: {
      partenaire: '/api/partenaires/IVY',
      subjects: ['/api/subjects/CORRUPTION'],
      canalPrincipal: '/api/canals/TELEPHONE',
      signalementAt: '2025-03-10',
      ...overrides,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { code: string }).code;
}

/** A clock that reads the system's time moved by whole days: the server's (useE2E's `clock`) in a test of time. */
export interface MovableClock extends Clock {
  /** Moves the clock `days` days ahead of the system's (0: back to it). */
  setDaysAhead(days: number): void;
  /** How far ahead, in milliseconds. */
  readonly offsetMs: number;
}

export function movableClock(): MovableClock {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    setDaysAhead(days) {
      offsetMs = days * 24 * 60 * 60_000;
    },
    get offsetMs() {
      return offsetMs;
    },
  };
}
