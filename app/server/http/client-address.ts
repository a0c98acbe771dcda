// The client address (request.ip) that the log-in throttle, the public summary's limit, the access log
// and the request log use (docs/decisions/0015-security-model.md, "Client address").
//
// Behind a reverse proxy the socket's address is the proxy's; X-Forwarded-For carries the client's, but
// only what the proxies themselves appended is true: anything to its left was written by the client.
// TRUST_PROXY therefore names the proxies (their addresses or networks) or counts them (hops), and the
// address kept is the first one, walking X-Forwarded-For from the right, that is not a trusted proxy.
// `true` means one hop, the proxy in front of the server: never the left-most value a client chose.
import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** What Fastify's `trustProxy` option takes: nothing, a hop count, or the proxies' addresses and networks. */
export type TrustProxy = false | number | string[];

export const MAX_PROXY_HOPS = 10;
// proxy-addr's names for the reserved ranges.
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

export const TRUST_PROXY_HINT =
  `doit valoir 'false', le nombre de proxys devant le serveur (1 à ${MAX_PROXY_HOPS} ; 'true' vaut 1) ` +
  "ou la liste de leurs adresses ou réseaux séparés par des virgules (par exemple '127.0.0.1' ou '10.0.0.0/8, ::1')";

function isProxyEntry(entry: string): boolean {
  if (RANGE_NAMES.has(entry) || isIP(entry) !== 0) return true;
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0 || !address || !bits || !/^\d{1,3}$/.test(bits)) return false;
  const family = isIP(address);
  return family !== 0 && Number(bits) <= (family === 4 ? 32 : 128);
}

/** TRUST_PROXY's text → Fastify's option; null when the value is not one of the accepted forms. */
export function parseTrustProxy(text: string): TrustProxy | null {
  const value = text.trim().toLowerCase();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return 1;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops >= 1 && hops <= MAX_PROXY_HOPS ? hops : null;
  }
  const entries = value.split(',').map((e) => e.trim());
  return entries.every(isProxyEntry) ? entries : null;
}

/**
 * Fastify's option. Fastify 5 ignores a bare hop count (it trusts nothing rather than a peer it cannot
 * check), so hops are a function: the socket's peer and the next hops - 1 addresses are proxies.
 */
export function fastifyTrustProxy(
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

/**
 * A forwarded value that is not an address (a proxy trusted for more hops than there are, one that passes
 * the client's header along unchecked) is never taken as the client's address: the socket's is used, so
 * no client-written text reaches a limiter's key or a log.
 */
export function registerClientAddress(app: FastifyInstance, trust: TrustProxy): void {
  if (trust === false) return;
  app.addHook('onRequest', (request, _reply, done) => {
    if (isIP(request.ip) === 0) {
      Object.defineProperty(request, 'ip', {
        value: request.socket.remoteAddress ?? '',
        configurable: true,
        enumerable: true,
      });
    }
    done();
  });
}
