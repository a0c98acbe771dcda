// Delivery of the built client (README « Delivery »): the .br/.gz copies written at build time are chosen by
// Accept-Encoding, hashed assets are cached for a year and index.html is revalidated. Build-independent:
// a temporary web root holds a fake hashed asset and its compressed copies.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { compressAssets } from '#scripts/compress-assets';

const SCRIPT = `export const rows = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `ligne ${i}`))};\n`;
const PAGE = `<!doctype html><html lang="fr"><title>Signalements</title><div id="root">${'Chargement… '.repeat(60)}</div></html>`;
const IMMUTABLE = 'public, max-age=31536000, immutable';

describe('delivery of the built client', () => {
  let t: TestApp;
  let root: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'signalements-delivery-'));
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), PAGE);
    writeFileSync(join(root, 'index.html.br'), brotliCompressSync(PAGE));
    writeFileSync(join(root, 'index.html.gz'), gzipSync(PAGE));
    writeFileSync(join(root, 'assets', 'index-B4x9Qz1a.js'), SCRIPT);
    writeFileSync(join(root, 'assets', 'index-B4x9Qz1a.js.br'), brotliCompressSync(SCRIPT));
    writeFileSync(join(root, 'assets', 'index-B4x9Qz1a.js.gz'), gzipSync(SCRIPT));
    // A small file the build leaves uncompressed.
    writeFileSync(join(root, 'assets', 'tiny-C0ffee12.css'), 'a{}');
    t = await createTestApp('sqlite', { WEB_ROOT: root });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const asset = '/admin/assets/index-B4x9Qz1a.js';

  it('sends the brotli copy when the browser accepts it, without a session', async () => {
    const res = await t.app.inject({ url: asset, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('sends the gzip copy when brotli is not accepted', async () => {
    const res = await t.app.inject({ url: asset, headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the file itself without Accept-Encoding, still varying on it', async () => {
    const res = await t.app.inject({ url: asset });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.body).toBe(SCRIPT);
  });

  it('falls back to the file itself when no compressed copy exists', async () => {
    const res = await t.app.inject({
      url: '/admin/assets/tiny-C0ffee12.css',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe('a{}');
  });

  it('compresses API answers on the fly for a client that accepts it, and not otherwise', async () => {
    await t.user('compression@example.mg');
    const cookie = await t.login('compression@example.mg');
    const list = await t.app.inject({
      url: '/api/regions',
      headers: { cookie, 'accept-encoding': 'br, gzip' },
    });
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-encoding']).toBe('br');
    const trpc = await t.app.inject({
      url: '/trpc/referentiels.regions',
      headers: { cookie, 'accept-encoding': 'gzip' },
    });
    expect(trpc.headers['content-encoding']).toBe('gzip');
    const plain = await t.app.inject({ url: '/api/regions', headers: { cookie } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
  });

  it('caches hashed assets for a year, whatever the encoding', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const res = await t.app.inject({ url: asset, headers: { 'accept-encoding': encoding } });
      expect(res.headers['cache-control'], encoding).toBe(IMMUTABLE);
    }
    const css = await t.app.inject({ url: '/admin/assets/tiny-C0ffee12.css' });
    expect(css.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('sends index.html with no-cache, compressed, for /admin/ and every client route, under the CSP', async () => {
    for (const url of [
      '/admin/',
      '/admin/index.html',
      '/admin/login',
      '/admin/signalement/list',
      '/admin/dashboard?x=1',
    ]) {
      const res = await t.app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.headers.vary, url).toMatch(/accept-encoding/i);
      expect(res.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(PAGE);
    }
    const plain = await t.app.inject({ url: '/admin/signalement/list' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.body).toBe(PAGE);
  });

  it('gives the compressed copies no address of their own, and keeps 404 for a missing asset', async () => {
    expect((await t.app.inject({ url: `${asset}.br` })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ url: '/admin/assets/missing-AAAAAAAA.js', headers: { 'accept-encoding': 'br' } }))
        .statusCode,
    ).toBe(404);
  });
});

describe('compressAssets (the build step)', () => {
  it('writes a smaller .br and .gz beside each compressible file and leaves small or binary files alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'signalements-compress-'));
    try {
      mkdirSync(join(dir, 'assets'));
      mkdirSync(join(dir, '.vite'));
      writeFileSync(join(dir, 'assets', 'app-1.js'), SCRIPT);
      writeFileSync(join(dir, 'assets', 'tiny-2.css'), 'a{}');
      writeFileSync(join(dir, 'assets', 'logo-3.png'), Buffer.alloc(4096, 7));
      writeFileSync(join(dir, '.vite', 'manifest.json'), JSON.stringify({ x: SCRIPT }));
      const files = await compressAssets(dir);
      expect(files.map((f) => f.file)).toEqual([join('assets', 'app-1.js')]);
      const [done] = files;
      expect(done!.br).toBeLessThan(done!.raw);
      expect(done!.gz).toBeLessThan(done!.raw);
      expect(readdirSync(join(dir, 'assets')).sort()).toEqual([
        'app-1.js',
        'app-1.js.br',
        'app-1.js.gz',
        'logo-3.png',
        'tiny-2.css',
      ]);
      expect(brotliDecompressSync(readFileSync(join(dir, 'assets', 'app-1.js.br'))).toString()).toBe(SCRIPT);
      expect(gunzipSync(readFileSync(join(dir, 'assets', 'app-1.js.gz'))).toString()).toBe(SCRIPT);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
