// The installable app and its offline shell (docs/decisions/0049-installable-offline-shell.md): the
// manifest and its icons, the service worker keeping the built client and nothing protected, the app
// opening without a network, and the French prompt when a new version waits.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations, settleAnimations } from './axe';
import { useE2E } from './harness';
import { ADMIN } from './sign-in';

const WEB_ROOT = resolve(import.meta.dirname, '../../dist/web');

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Waits until the page is controlled by the active service worker (its install, precache included, is done). */
async function controlled(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

/** Every URL in the page's Cache Storage, per cache name. */
function cachedUrls(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(async () => {
    const all: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      all[name] = (await (await caches.open(name)).keys()).map((request) => request.url);
    }
    return all;
  });
}

/** The keys of the offline store's read cache (web/lib/offline/idb-backend.ts), none without a store. */
function cacheKeys(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((db) => db.name === 'signalements-hors-ligne')) return [];
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('signalements-hors-ligne');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(new Error('IndexedDB'));
    });
    try {
      return await new Promise<string[]>((resolve, reject) => {
        const req = db.transaction('cache', 'readonly').objectStore('cache').getAllKeys();
        req.onsuccess = () => resolve(req.result.map(String));
        req.onerror = () => reject(new Error('IndexedDB'));
      });
    } finally {
      db.close();
    }
  });
}

/** What the client says when the session cannot be checked (web/features/auth). */
const SESSION_UNREACHABLE = 'Impossible de vérifier votre session. Le serveur ne répond pas.';

/** The address of what failed while offline, as Chromium logs it. */
const OFFLINE_FAILURE = /ERR_INTERNET_DISCONNECTED|Failed to load resource|Failed to fetch/;

describe('installable app and offline shell', () => {
  const e = useE2E({}, { closeTestPages: true });

  it('links a valid French manifest whose icons are reachable PNGs of their declared sizes', async () => {
    const page = await e.newPage();
    await page.goto('/admin/login');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/admin/manifest.webmanifest');
    const response = await page.request.get(href!);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = JSON.parse(await response.text()) as {
      name: string;
      short_name: string;
      lang: string;
      start_url: string;
      scope: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: { src: string; sizes: string; type: string; purpose: string }[];
    };
    expect(manifest).toMatchObject({
      name: 'Signalements',
      short_name: 'Signalements',
      lang: 'fr',
      start_url: '/admin',
      scope: '/',
      display: 'standalone',
    });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/);
    expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`).sort()).toEqual([
      '192x192 any',
      '512x512 any',
      '512x512 maskable',
    ]);
    for (const icon of manifest.icons) {
      const png = await page.request.get(icon.src);
      expect(png.status(), icon.src).toBe(200);
      expect(png.headers()['content-type'], icon.src).toBe('image/png');
      const [width, height] = icon.sizes.split('x').map(Number);
      expect(pngSize(await png.body()), icon.src).toEqual({ width, height });
    }
  });

  it('opens the log-in page without a network once visited, and never answers the API from its cache', async () => {
    const page = await e.newPage({ serviceWorkers: 'allow' });
    await page.goto('/admin/login');
    await page.getByRole('heading', { name: 'Connexion' }).waitFor();
    await controlled(page);

    const cached = await cachedUrls(page);
    const shell = Object.entries(cached).filter(([name]) => name.startsWith('signalements-shell-'));
    expect(shell).toHaveLength(1);
    const urls = shell[0]![1].map((url) => new URL(url).pathname);
    expect(urls).toContain('/admin/index.html');
    expect(urls).toContain('/admin/manifest.webmanifest');
    expect(urls.some((url) => /^\/admin\/assets\/index-.*\.js$/.test(url))).toBe(true);

    await page.context().setOffline(true);
    const failures = e.allowConsoleErrors(OFFLINE_FAILURE);
    try {
      await page.reload();
      await page.getByRole('heading', { name: 'Connexion' }).waitFor();
      expect(await page.title()).toContain('Connexion');
      // The manifest's start_url, outside /admin/: the worker's scope is the whole origin. The client
      // starts, and says in French that it cannot check the session (its data side is another matter).
      await page.goto('/admin');
      await page.getByText(SESSION_UNREACHABLE).waitFor();
      await page.getByRole('button', { name: 'Réessayer' }).waitFor();
      expect(page.url()).not.toMatch(/^chrome-error:/);
      // An API request goes to the network, which is down: it fails, no cache answers it.
      const api = await page.evaluate(async () => {
        try {
          const response = await fetch('/trpc/auth.session');
          return `réponse ${response.status}`;
        } catch {
          return 'échec réseau';
        }
      });
      expect(api).toBe('échec réseau');
    } finally {
      await page.context().setOffline(false);
    }
    // Whatever the client asked while offline, only expected network failures were logged.
    for (const failure of failures) expect(failure).toMatch(OFFLINE_FAILURE);
  });

  it('opens the signed-in layout without a network, and its caches hold no API answer', async () => {
    const page = await e.newPage({ signedInAs: ADMIN, serviceWorkers: 'allow' });
    await page.goto('/admin/configuration');
    await expect.poll(() => page.title(), { timeout: 45_000 }).toContain('Configuration');
    await controlled(page);
    // This session's key is kept on the device (auth.offlineKey answered), so the next load keeps its answers.
    await expect
      .poll(() =>
        page.evaluate(async () =>
          (await indexedDB.databases()).some((db) => db.name === 'signalements-hors-ligne'),
        ),
      )
      .toBe(true);
    // Data asked while controlled (session, preferences), through the worker, which lets them by.
    await page.reload();
    await expect.poll(() => page.title(), { timeout: 45_000 }).toContain('Configuration');
    await page.getByTestId('sidebar').waitFor();
    await page.evaluate(() => fetch('/api/utilisateur/who-am-i').then((response) => response.status));

    const all = Object.values(await cachedUrls(page)).flat();
    expect(all.length).toBeGreaterThan(10);
    for (const url of all) {
      const path = new URL(url).pathname;
      expect(path, url).toMatch(/^\/admin\//);
      expect(path, url).not.toMatch(/^\/(?:api|trpc|metrics)\b/i);
    }

    // The session's answer is kept on the device (encrypted, decision 0048) once its key is known: the
    // offline reload opens the signed-in layout from it rather than saying the session cannot be checked.
    await expect
      .poll(async () => (await cacheKeys(page)).some((key) => key.startsWith('auth.session|')))
      .toBe(true);
    await page.context().setOffline(true);
    e.allowConsoleErrors(OFFLINE_FAILURE);
    try {
      await page.reload();
      await page.getByTestId('sidebar').waitFor();
      await expect.poll(() => page.title()).toContain('Configuration');
      expect(await page.getByText(SESSION_UNREACHABLE).count()).toBe(0);
      expect(page.url()).toMatch(/\/admin\/configuration$/);
      expect(await page.locator('html').getAttribute('lang')).toBe('fr');
    } finally {
      await page.context().setOffline(false);
    }
  }, 150_000);

  it('opens the kept shell when the network takes a page but never answers it (a link gone silent)', async () => {
    const page = await e.newPage({ signedInAs: ADMIN, serviceWorkers: 'allow' });
    await page.goto('/admin/configuration');
    await expect.poll(() => page.title(), { timeout: 45_000 }).toContain('Configuration');
    await controlled(page);
    await page.getByTestId('sidebar').waitFor();

    // The worker's request for the page reaches a network that keeps it without a word; the data requests
    // still pass, so the screen is the one of a slow link, not of no link.
    let held = 0;
    await page.context().route(
      (url) => url.pathname === '/admin/configuration',
      () => {
        held++;
      },
    );
    try {
      await page.reload({ waitUntil: 'commit' });
      await page.getByTestId('sidebar').waitFor();
      await expect.poll(() => page.title()).toContain('Configuration');
      expect(held).toBeGreaterThan(0);
    } finally {
      await page.context().unrouteAll({ behavior: 'ignoreErrors' });
    }
  }, 150_000);

  it('offers « Recharger » when a new version waits, and the new version deletes the old caches', async () => {
    const page = await e.newPage({ serviceWorkers: 'allow' });
    await page.goto('/admin/login');
    await page.getByRole('heading', { name: 'Connexion' }).waitFor();
    await controlled(page);
    // An older build's cache, and a cache that is not the worker's (the data store's): only the first goes.
    await page.evaluate(async () => {
      await (await caches.open('signalements-shell-ancienne')).put('/admin/x', new Response('x'));
      await (await caches.open('autre-cache')).put('/admin/y', new Response('y'));
    });

    // A new build of the worker: other bytes for /admin/sw.js, in each encoding the server may send.
    const files = ['sw.js', 'sw.js.br', 'sw.js.gz'].map((name) => join(WEB_ROOT, name));
    const originals = files.map((file) => readFileSync(file));
    const updated = Buffer.concat([originals[0]!, Buffer.from(`\n// ${Date.now()}\n`)]);
    try {
      writeFileSync(files[0]!, updated);
      writeFileSync(files[1]!, brotliCompressSync(updated));
      writeFileSync(files[2]!, gzipSync(updated));
      await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r!.update()));
      const prompt = page.getByTestId('update-prompt');
      await prompt.getByText('Une nouvelle version est disponible').waitFor();
      await prompt.getByRole('button', { name: 'Recharger' }).waitFor();
    } finally {
      for (const [i, file] of files.entries()) writeFileSync(file, originals[i]!);
    }

    await settleAnimations(page);
    const desktop = await seriousViolations(page);
    expect(desktop, describeViolations(desktop)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 812 });
    await settleAnimations(page);
    const phone = await seriousViolations(page);
    expect(phone, describeViolations(phone)).toEqual([]);
    const box = (await page.getByTestId('update-prompt').boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);

    const reloaded = page.waitForEvent('load');
    await page.getByRole('button', { name: 'Recharger' }).click();
    await reloaded;
    await page.getByRole('heading', { name: 'Connexion' }).waitFor();
    await expect(page.getByTestId('update-prompt').count()).resolves.toBe(0);
    const names = Object.keys(await cachedUrls(page));
    expect(names).not.toContain('signalements-shell-ancienne');
    expect(names).toContain('autre-cache');
  });
});
