import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Sends `Cache-Control: no-store`: the answer may carry personal data that no browser or proxy
     * cache should keep. Every /api and /trpc route gets it unless it sets `noStore: false` itself.
     */
    noStore?: boolean;
  }
}

/** The origin of the MAP_STYLE_URL tile style, which the browser fetches itself; null when unset. */
function mapOrigin(config: Pick<Config, 'MAP_STYLE_URL'>): string | null {
  return config.MAP_STYLE_URL ? new URL(config.MAP_STYLE_URL).origin : null;
}

/**
 * The Content-Security-Policy of every response. No inline or evaluated script at all: the built
 * index.html only loads hashed modules, and zod runs jitless in the browser (web/lib/zod-jitless.ts).
 * No inline style either: apexcharts' stylesheets come from the bundle (`chart.injectStyleSheet: false`,
 * web/features/dashboard/chart.tsx), and React, maplibre and apexcharts set element styles through the
 * CSSOM, which `style-src` does not govern. tests/e2e/csp.e2e.ts visits every screen under it.
 */
export function contentSecurityPolicy(config: Pick<Config, 'MAP_STYLE_URL'>): string {
  const map = mapOrigin(config);
  const extra = map ? ` ${map}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob:${extra}`,
    "font-src 'self' data:",
    // The browser fetches the MAP_STYLE_URL style and, usually from the same host, its tiles, sprites and
    // glyphs. A style whose tiles live on another host needs that host added here.
    `connect-src 'self'${extra}`,
    // maplibre's worker is a bundled file of our own (workerUrl, web/features/dashboard/geo-map.tsx).
    // maplibre wraps a worker in a blob: URL only when its address is on another origin: no blob: here.
    "worker-src 'self'",
    // The installable app's manifest (/admin/manifest.webmanifest, docs/decisions/0049).
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** Powerful browser features the back-office never uses, denied to the page and to any frame. */
export const PERMISSIONS_POLICY = [
  'accelerometer',
  'autoplay',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

const API_PREFIXES = ['/api/', '/trpc/'];

/**
 * The security headers of every answer, the ones no route writes included (server/http/errors.ts: Node's
 * parser errors, Fastify's router errors).
 */
export function securityHeaders(
  config: Pick<Config, 'MAP_STYLE_URL' | 'PUBLIC_URL'>,
): Record<string, string> {
  const headers: Record<string, string> = {
    'content-security-policy': contentSecurityPolicy(config),
    'permissions-policy': PERMISSIONS_POLICY,
    'cross-origin-opener-policy': 'same-origin',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'x-frame-options': 'DENY',
  };
  // Only over HTTPS: a browser ignores it on plain HTTP, and pinning HTTPS on a host that has none
  // would lock users out.
  if (config.PUBLIC_URL.startsWith('https:')) {
    headers['strict-transport-security'] = 'max-age=31536000; includeSubDomains';
  }
  return headers;
}

/**
 * Security headers of every response, and `Cache-Control: no-store` on the routes flagged `noStore`.
 * The flag is set when the route is registered, from its own path (every /api and /trpc route), so the
 * decision follows the matched route and never the raw request URL. Call this before registering routes.
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  const headers = securityHeaders(config);

  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    if (route.config?.noStore === undefined && API_PREFIXES.some((prefix) => `${url}/`.startsWith(prefix))) {
      route.config = { ...route.config, noStore: true };
    }
  });

  app.addHook('onSend', async (request, reply) => {
    reply.headers(headers);
    if (request.routeOptions.config?.noStore) reply.header('cache-control', 'no-store');
  });
}
