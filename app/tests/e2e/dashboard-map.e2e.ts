import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '#server/db/seed/demo';
import { type E2E, startServer, useE2E } from './harness';
import { ADMIN, loginAs } from './sign-in';

/** Records every request of the context and refuses those for another machine. */
async function offMachine(context: BrowserContext): Promise<string[]> {
  const outside: string[] = [];
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (!['127.0.0.1', 'localhost'].includes(url.hostname) && !['blob:', 'data:'].includes(url.protocol))
      outside.push(url.href);
  });
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    return url.hostname === '127.0.0.1' ? route.continue() : route.abort();
  });
  return outside;
}

/**
 * A page on a second server (its own database) whose MAP_STYLE_URL is `styleUrl`, collecting the
 * console errors other than the expected 401 of who-am-i.
 */
async function pageWithStyle(e: E2E, styleUrl: string) {
  const server = await startServer({ MAP_STYLE_URL: styleUrl });
  const context = await e.browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'fr-FR',
    baseURL: server.running.url,
    // As the harness's pages: the service worker is tested in offline-shell.e2e.ts (decision 0049).
    serviceWorkers: 'block',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && !/status of 401/.test(m.text()) && errors.push(m.text()));
  return {
    context,
    page,
    errors,
    async close() {
      await context.close();
      await server.close();
    },
  };
}

describe('dashboard map without network', () => {
  const e = useE2E();
  let tiles: Server;
  let tilesUrl: string;
  beforeAll(async () => {
    await seedDemo(e.running.ctx, { reports: 200, seed: 1 });
    // A style service on this machine, standing for the public tile service of production.
    tiles = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
      res.end(
        JSON.stringify({
          version: 8,
          sources: {},
          layers: [{ id: 'fond', type: 'background', paint: { 'background-color': '#e0f2fe' } }],
        }),
      );
    });
    await new Promise<void>((resolve) => tiles.listen(0, '127.0.0.1', resolve));
    tilesUrl = `http://127.0.0.1:${(tiles.address() as AddressInfo).port}/style.json`;
  });
  afterAll(async () => {
    await new Promise((resolve) => tiles?.close(resolve));
  });

  it('draws Madagascar, the circles and the legend from the bundled layer when MAP_STYLE_URL is unset', async () => {
    const page = await e.newPage();
    const outside = await offMachine(page.context());
    await loginAs(page, ADMIN.email, ADMIN.password);
    const map = page.getByTestId('geo-map');
    await expect.poll(() => map.getAttribute('data-loaded'), { timeout: 20_000 }).toBe('true');
    expect(await map.getAttribute('data-style')).toBe('offline');
    expect(await map.getAttribute('data-circles')).toBe('24');
    expect(await map.locator('canvas.maplibregl-canvas').count()).toBe(1);
    // The bundled region layer, served with the client, has been loaded by the map.
    await expect.poll(() => map.getAttribute('data-regions')).toBe('loaded');
    expect(await page.getByTestId('map-legend').isVisible()).toBe(true);
    expect(outside).toEqual([]);
  });

  it('falls back to the offline map, without a console error, when MAP_STYLE_URL cannot be reached', async () => {
    const { context, page, errors, close } = await pageWithStyle(e, 'http://127.0.0.1:9/style.json');
    try {
      page.on('pageerror', (error) => errors.push(String(error)));
      const outside = await offMachine(context);
      await loginAs(page, ADMIN.email, ADMIN.password);
      const map = page.getByTestId('geo-map');
      await expect.poll(() => map.getAttribute('data-loaded'), { timeout: 20_000 }).toBe('true');
      expect(await map.getAttribute('data-style')).toBe('offline');
      expect(outside).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('uses the tile style of MAP_STYLE_URL when it answers', async () => {
    const { page, errors, close } = await pageWithStyle(e, tilesUrl);
    try {
      const styleRequests: string[] = [];
      page.on('request', (r) => r.url() === tilesUrl && styleRequests.push(r.url()));
      await loginAs(page, ADMIN.email, ADMIN.password);
      const map = page.getByTestId('geo-map');
      await expect.poll(() => map.getAttribute('data-loaded'), { timeout: 20_000 }).toBe('true');
      expect(await map.getAttribute('data-style')).toBe('online');
      expect(styleRequests.length).toBeGreaterThan(0);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
