import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { policyOf, type RequestFacts } from './policy';

const ORIGIN = 'https://signalements.example.mg';
const PRECACHED = new Set(['/admin/index.html', '/admin/manifest.webmanifest', '/admin/icons/icon-192.png']);

const facts = (path: string, overrides: Partial<RequestFacts> = {}): RequestFacts => ({
  url: `${ORIGIN}${path}`,
  method: 'GET',
  mode: 'cors',
  origin: ORIGIN,
  ...overrides,
});

/** A concrete path for a route's pattern (`/api/signalements/:code` → `/api/signalements/x`). */
const concrete = (url: string) => url.replace(/:[^/]+/g, 'x').replace(/\*/g, 'x');

describe('what the service worker does with each request', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => t?.close());

  it("leaves every server route but the client's files to the network, whatever the method or mode", () => {
    const doors = t.app.routeList.filter((route) => !route.config.clientFile);
    expect(doors.length).toBeGreaterThan(50);
    for (const door of doors) {
      const path = concrete(door.url);
      for (const mode of ['cors', 'navigate', 'no-cors', 'same-origin']) {
        for (const method of ['GET', door.method]) {
          expect(policyOf(facts(path, { mode, method }), PRECACHED), `${method} ${path} (${mode})`).toBe(
            'network',
          );
        }
      }
    }
  });

  it('leaves the API to the network under the spellings the router decodes, and any other origin', () => {
    for (const path of [
      '/API/x',
      '/%61pi/x',
      '/tRPC/auth.session',
      '/%74rpc/x',
      '/api',
      '/metrics',
      '/trpc',
    ]) {
      expect(policyOf(facts(path), PRECACHED), path).toBe('network');
      expect(policyOf(facts(path, { mode: 'navigate' }), PRECACHED), path).toBe('network');
    }
    expect(policyOf(facts('/admin/%E0', { mode: 'navigate' }), PRECACHED)).toBe('network');
    expect(
      policyOf(
        { ...facts('/admin/assets/a-12345678.js'), url: 'https://tuiles.example.org/admin/assets/a.js' },
        PRECACHED,
      ),
    ).toBe('network');
  });

  it("answers the client's pages offline, and its hashed and precached files from the cache", () => {
    for (const path of ['/admin', '/admin/', '/admin/login', '/admin/signalement/detail/SIG-ABCD-EFGH?x=1']) {
      expect(policyOf(facts(path, { mode: 'navigate' }), PRECACHED), path).toBe('page');
    }
    expect(policyOf(facts('/admin/assets/index-AbCd1234.js'), PRECACHED)).toBe('cache-first');
    expect(policyOf(facts('/admin/manifest.webmanifest'), PRECACHED)).toBe('cache-first');
    expect(policyOf(facts('/admin/icons/icon-192.png'), PRECACHED)).toBe('cache-first');
    // Not kept: a file the build did not list, a query string, a write, a file opened as a page, the root.
    expect(policyOf(facts('/admin/other.json'), PRECACHED)).toBe('network');
    expect(policyOf(facts('/admin/assets/index-AbCd1234.js?v=2'), PRECACHED)).toBe('network');
    expect(policyOf(facts('/admin/assets/index-AbCd1234.js', { method: 'POST' }), PRECACHED)).toBe('network');
    expect(policyOf(facts('/admin/icons/icon-192.png', { mode: 'navigate' }), PRECACHED)).toBe('network');
    expect(policyOf(facts('/', { mode: 'navigate' }), PRECACHED)).toBe('network');
  });
});
