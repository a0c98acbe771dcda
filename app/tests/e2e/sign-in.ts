// How the browser tests' accounts sign in: their passwords, and the second factor passed through the
// enrolment page, the login form or the API, with codes of an authenticator app of the tests' own.
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateHOTP } from '@oslojs/otp';
import { eq, inArray } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Database } from '#server/db/client';

// Passwords pass the server's strength check (password-strength.ts): no common word alone, not the e-mail.
export const ADMIN = { email: 'admin@example.mg', password: 'cle-de-voute-e2e-42' };
export const PASSWORD = 'utilisateur-e2e-42';

/** The database of this file's server (startServer), for forgetSteps. */
let serverDb: Database | undefined;

/**
 * TOTP keys of the accounts enrolled through loginAs or signInByApi, per e-mail, on this file's server (an
 * enrolment replaces the key it finds).
 */
const totpKeys = new Map<string, Uint8Array>();
const keyName = (_page: Page, email: string) => email.toLowerCase();
/** The last step handed out per e-mail: the server accepts each TOTP step once, in increasing order. */
const handedSteps = new Map<string, number>();
const stepNow = () => Math.floor(Date.now() / 30_000);

/** Called by startServer with its database: forgetSteps resets the accepted steps there. */
export function useServerDatabase(db: Database): void {
  serverDb = db;
}

/**
 * Called as a test file starts its server (startE2E): its accounts are new, and the keys and steps of the
 * previous file of this process (test files share their worker's modules, README « Test ») are forgotten,
 * or steps handed out in the same 30 seconds would leave this file's first log-in without a code.
 */
export function forgetAccounts(): void {
  serverDb = undefined;
  totpKeys.clear();
  handedSteps.clear();
}

/**
 * A code of the authenticator app of an account enrolled in this server through the browser that the
 * server has not accepted yet: the current step's, or the next one's when the current one was handed out.
 */
export function totpCode(page: Page, email: string): string {
  const key = totpKeys.get(keyName(page, email));
  if (!key) throw new Error(`pas de clé TOTP pour ${email}`);
  const step = Math.max(stepNow(), (handedSteps.get(keyName(page, email)) ?? -Infinity) + 1);
  if (step > stepNow() + 1) throw new Error(`plus de code TOTP inutilisé pour ${email} dans ces 30 secondes`);
  handedSteps.set(keyName(page, email), step);
  return generateHOTP(key, BigInt(step), 6);
}

/**
 * The fixtures' own log-ins (loginAs, signInByApi, enrolTwoFactor) are not what a test proves: before
 * and after their code they set the account's last accepted step back as if 30 seconds had passed, so a
 * file logs in as often as it likes (a person does not log in twice within 30 seconds).
 */
async function forgetSteps(page: Page, email: string): Promise<void> {
  handedSteps.delete(keyName(page, email));
  if (!serverDb) return;
  const db = serverDb;
  const { twoFactorKeys: k, utilisateurs: u } = db.t;
  const users = db.read.select({ id: u.id }).from(u).where(eq(u.email, email.toLowerCase()));
  await db.transaction((tx) => tx.update(k).set({ lastUsedStep: null }).where(inArray(k.userId, users)));
}

/** The password of the accounts the harness creates. */
const passwordOf = (email: string) => (email.toLowerCase() === ADMIN.email ? ADMIN.password : PASSWORD);

/**
 * Enrols the account on the enrolment page, as a person with an authenticator app would: reads the
 * key under the QR code, types a code, keeps the recovery codes. Returns them.
 */
export async function enrolTwoFactor(
  page: Page,
  email: string,
  password = passwordOf(email),
): Promise<string[]> {
  await page.waitForURL((url) => url.pathname === '/admin/double-authentification/activation');
  const secret = (await page.getByTestId('two-factor-secret').textContent())!.replace(/\s+/g, '');
  totpKeys.set(keyName(page, email), decodeBase32IgnorePadding(secret));
  handedSteps.delete(keyName(page, email));
  await page.getByLabel('Mot de passe actuel').fill(password);
  await page.getByLabel('Code de vérification').fill(totpCode(page, email));
  await page.getByRole('button', { name: 'Activer', exact: true }).click();
  const list = page.getByTestId('recovery-codes');
  await list.waitFor();
  const codes = await list.getByRole('listitem').allTextContents();
  await page.getByRole('button', { name: "J'ai enregistré mes codes" }).click();
  // The dashboard, or the page asked for before the log-in (?retour=).
  await page.waitForURL((url) => !url.pathname.startsWith('/admin/double-authentification'));
  await forgetSteps(page, email);
  return codes;
}

/**
 * Logs in through the real login form, then passes the second factor when the account owes one
 * (administrators by default): enrolment the first time, a generated code afterwards.
 */
export async function loginAs(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/admin/login');
  await page.getByLabel(/e-?mail/i).fill(email);
  await page.getByLabel(/mot de passe/i).fill(password);
  await page.getByRole('button', { name: /se connecter/i }).click();
  await page.waitForURL((url) => url.pathname !== '/admin/login');
  const path = new URL(page.url()).pathname;
  if (path === '/admin/double-authentification/activation') {
    await enrolTwoFactor(page, email, password);
  } else if (path === '/admin/double-authentification') {
    await forgetSteps(page, email);
    await page.getByLabel('Code de vérification').fill(totpCode(page, email));
    await page.getByRole('button', { name: 'Vérifier' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/admin/double-authentification'));
    await forgetSteps(page, email);
  }
}

/**
 * Opens a session through the REST log-in (the page's cookie jar), then passes the second factor the
 * account owes through the API: enrolment (setup and a first code) or a code.
 */
export async function signInByApi(page: Page, email: string, password: string): Promise<void> {
  const res = await page.request.post('/api/login', { data: { email, password } });
  expect(res.status()).toBe(200);
  const { twoFactor } = (await res.json()) as { twoFactor: 'enrol' | 'verify' | null };
  if (twoFactor === 'enrol') {
    const setup = await page.request.post('/trpc/twoFactor.setup', { data: {} });
    expect(setup.status()).toBe(200);
    const { secret } = ((await setup.json()) as { result: { data: { secret: string } } }).result.data;
    totpKeys.set(keyName(page, email), decodeBase32IgnorePadding(secret));
    handedSteps.delete(keyName(page, email));
    const enrol = await page.request.post('/trpc/twoFactor.enrol', {
      data: { password, code: totpCode(page, email) },
    });
    expect(enrol.status()).toBe(200);
  } else if (twoFactor === 'verify') {
    await forgetSteps(page, email);
    const verify = await page.request.post('/api/two-factor/verify', {
      data: { code: totpCode(page, email) },
    });
    expect(verify.status()).toBe(204);
  }
  if (twoFactor) await forgetSteps(page, email);
}
