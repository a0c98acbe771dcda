import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';

/** The policy's directives by name, each with its list of sources. */
function csp(res: LightMyRequestResponse): Map<string, string[]> {
  const header = String(res.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

function expectSecurityHeaders(res: LightMyRequestResponse) {
  const policy = csp(res);
  expect(policy.get('default-src')).toEqual(["'self'"]);
  expect(policy.get('script-src')).toEqual(["'self'"]);
  expect(policy.get('style-src')).toEqual(["'self'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  expect(policy.get('form-action')).toEqual(["'self'"]);
  expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
  expect(policy.get('connect-src')).toEqual(["'self'"]);
  expect(policy.get('worker-src')).toEqual(["'self'"]);
  expect(policy.get('manifest-src')).toEqual(["'self'"]);
  expect(policy.get('font-src')).toEqual(["'self'", 'data:']);
  expect(String(res.headers['content-security-policy'])).not.toMatch(/unsafe-(inline|eval)/);
  for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) {
    expect(res.headers['permissions-policy']).toContain(`${feature}=()`);
  }
  expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('same-origin');
  expect(res.headers['x-frame-options']).toBe('DENY');
  // The default PUBLIC_URL is plain http: no HSTS.
  expect(res.headers['strict-transport-security']).toBeUndefined();
}

describe('security headers', () => {
  let t: TestApp;
  let root: string;
  let cookie: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'signalements-headers-'));
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>Signalements</title>');
    writeFileSync(join(root, 'assets', 'app-1234.js'), 'console.log(1)');
    t = await createTestApp('sqlite', { WEB_ROOT: root });
    await t.user('agent@example.mg');
    cookie = await t.login('agent@example.mg');
  });
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('protects an /api answer and forbids caching it, with or without a session', async () => {
    for (const headers of [{ cookie }, {}]) {
      const res = await t.app.inject({ url: '/api/signalements', headers });
      expect(res.statusCode).toBe(headers.cookie ? 200 : 401);
      expectSecurityHeaders(res);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const health = await t.app.inject({ url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.headers['cache-control']).toBe('no-store');
  });

  it('protects a /trpc answer and forbids caching it', async () => {
    const res = await t.app.inject({ url: '/trpc/auth.whoAmI', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expectSecurityHeaders(res);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('protects the client pages and leaves the caching of the page and its assets alone', async () => {
    for (const url of ['/admin/', '/admin/dashboard', '/admin/definir-mot-de-passe/abc']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expectSecurityHeaders(res);
      expect(res.headers['cache-control'] ?? '', url).not.toContain('no-store');
    }
    const asset = await t.app.inject({ url: '/admin/assets/app-1234.js' });
    expect(asset.statusCode).toBe(200);
    expectSecurityHeaders(asset);
    expect(asset.headers['cache-control']).not.toContain('no-store');
  });

  it('decides no-store from the matched route, not from the text of the URL', async () => {
    // The router decodes the path: this is /api/health, though the raw URL does not start with /api.
    const encoded = await t.app.inject({ url: '/%61pi/health' });
    expect(encoded.statusCode).toBe(200);
    expect(encoded.headers['cache-control']).toBe('no-store');
    // Client pages whose path merely contains api or trpc are not API routes.
    for (const url of ['/admin/api/x', '/admin/trpc']) {
      const res = await t.app.inject({ url });
      expect(res.headers['cache-control'] ?? '', url).not.toContain('no-store');
    }
  });
});

describe('security headers that depend on the configuration', () => {
  it('sends Strict-Transport-Security only when PUBLIC_URL is https', async () => {
    const https = await createTestApp('sqlite', { PUBLIC_URL: 'https://signalements.example.mg' });
    try {
      const res = await https.app.inject({ url: '/api/health' });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect((await https.app.inject({ url: '/admin/' })).headers['strict-transport-security']).toBe(
        'max-age=31536000; includeSubDomains',
      );
    } finally {
      await https.close();
    }
    const http = await createTestApp('sqlite', { PUBLIC_URL: 'http://signalements.example.mg' });
    try {
      expect(
        (await http.app.inject({ url: '/api/health' })).headers['strict-transport-security'],
      ).toBeUndefined();
    } finally {
      await http.close();
    }
  });

  it("lets the browser fetch MAP_STYLE_URL's origin (and only the origin) for the map", async () => {
    const t = await createTestApp('sqlite', {
      MAP_STYLE_URL: 'https://tiles.example.org:8443/styles/liberty.json?key=1',
    });
    try {
      const policy = csp(await t.app.inject({ url: '/admin/' }));
      expect(policy.get('connect-src')).toEqual(["'self'", 'https://tiles.example.org:8443']);
      expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'blob:', 'https://tiles.example.org:8443']);
      expect(policy.get('script-src')).toEqual(["'self'"]);
    } finally {
      await t.close();
    }
  });
});
