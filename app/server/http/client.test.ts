import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';

describe('the built client under /admin', () => {
  let t: TestApp;
  let root: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'signalements-web-'));
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>Signalements</title>');
    writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(root, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    writeFileSync(join(root, 'manifest.webmanifest'), '{"name":"Signalements"}');
    // The precompressed copies the build writes beside them (scripts/compress-assets.ts).
    writeFileSync(join(root, 'sw.js.br'), brotliCompressSync('self.addEventListener("fetch", () => {});'));
    t = await createTestApp('sqlite', { WEB_ROOT: root });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('redirects / and /admin to /admin/', async () => {
    expect((await t.app.inject({ url: '/' })).headers.location).toBe('/admin/');
    expect((await t.app.inject({ url: '/admin' })).headers.location).toBe('/admin/');
  });

  it('serves index.html for every client route (history fallback)', async () => {
    for (const url of [
      '/admin/',
      '/admin/login',
      '/admin/signalement/detail/SIG-ABCD-EFGH',
      '/admin/dashboard?x=1',
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<title>Signalements</title>');
    }
  });

  it('serves assets and answers 404 for a missing one instead of the page', async () => {
    expect((await t.app.inject({ url: '/admin/assets/app.js' })).body).toBe('console.log(1)');
    expect((await t.app.inject({ url: '/admin/assets/missing.js' })).statusCode).toBe(404);
  });

  it('serves the service worker as a public file, revalidated, allowed to control the whole origin', async () => {
    for (const encoding of ['identity', 'br']) {
      const res = await t.app.inject({ url: '/admin/sw.js', headers: { 'accept-encoding': encoding } });
      expect(res.statusCode, encoding).toBe(200);
      expect(res.headers['content-type'], encoding).toMatch(/^(?:text|application)\/javascript/);
      expect(res.headers['cache-control'], encoding).toBe('no-cache');
      expect(res.headers['service-worker-allowed'], encoding).toBe('/');
    }
    expect(
      (await t.app.inject({ url: '/admin/sw.js', headers: { 'accept-encoding': 'br' } })).headers[
        'content-encoding'
      ],
    ).toBe('br');
    // No other file may widen a worker's scope.
    for (const url of ['/admin/assets/app.js', '/admin/manifest.webmanifest', '/admin/']) {
      expect((await t.app.inject({ url })).headers['service-worker-allowed'], url).toBeUndefined();
    }
  });

  it('serves the manifest as application/manifest+json, revalidated', async () => {
    const res = await t.app.inject({ url: '/admin/manifest.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(JSON.parse(res.body)).toEqual({ name: 'Signalements' });
  });

  it('answers unknown API routes with a JSON error, not the page', async () => {
    const res = await t.app.inject({ url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
  });

  it('sends basic security headers', async () => {
    const res = await t.app.inject({ url: '/admin/' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });
});
