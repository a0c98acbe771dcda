// Where a partner-registered webhook endpoint may point (docs/decisions/0051-partner-webhook-endpoints.md):
// a partner's token must not turn the delivery worker into a way into the unit's own network (SSRF). Unless
// WEBHOOK_PARTNER_ADDRESSES=any, such an endpoint is HTTPS to a public address: an address literal is judged
// at registration and before every POST, a name when the POST connects — the lookup below resolves it,
// refuses it if any of its addresses is not public, and hands the socket the address it judged, so a name
// that answers differently a second time (DNS rebinding) cannot slip through.
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Who registered an endpoint: an administrator on the « Webhooks » screen, or a partner with its token. */
export const ENDPOINT_ORIGINS = ['administrateur', 'partenaire'] as const;
export type EndpointOrigin = (typeof ENDPOINT_ORIGINS)[number];

/** WEBHOOK_PARTNER_ADDRESSES: `public` (the default) or `any` (a closed network, the tests' loopback receiver). */
export type PartnerAddressRule = 'public' | 'any';

export const ADDRESS_MESSAGES = {
  httpsOnly:
    "L'adresse doit commencer par https:// (HTTP n'est pas accepté pour un point de réception enregistré par un partenaire).",
  notPublic:
    "L'adresse désigne la machine locale, un réseau privé ou une plage réservée : indiquez l'adresse publique de votre point de réception.",
  resolvedNotPublic: (host: string, address: string) =>
    `Adresse refusée : ${host} désigne une adresse privée ou réservée (${address}).`,
  unresolved: (host: string) => `Adresse introuvable : ${host} ne se résout en aucune adresse.`,
} as const;

/** The ranges that are not the public Internet (IANA special-purpose registries, IPv4 and IPv6). */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // « this network »
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64 (well-known prefix)
  ['64:ff9b:1::', 48], // NAT64 (local use)
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo included)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: carries an IPv4 address
  ['3fff::', 20], // documentation (RFC 9637)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

/**
 * IPv4-mapped IPv6 addresses, refused whatever IPv4 address they carry. A list of its own: BlockList matches
 * an IPv4 address against an IPv6 rule through this very mapping, so in NOT_PUBLIC it would refuse them all.
 */
const MAPPED = new BlockList();
MAPPED.addSubnet('::ffff:0:0', 96, 'ipv6');

/**
 * The only IPv6 space allocated as global unicast (2000::/3): the rest is reserved, and holds forms that
 * carry an IPv4 address the ranges above would not judge (IPv4-compatible ::/96, IPv4-translated
 * ::ffff:0:0:0/96) or were added to the registry after this list (5f00::/16). An allow-list, so a new
 * special-purpose range outside it needs no update here.
 */
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');

/** Whether an IP address (without brackets) is on the public Internet. Anything else than an address: no. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6 && (MAPPED.check(address, 'ipv6') || !GLOBAL_UNICAST.check(address, 'ipv6'))) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** `[::1]` → `::1`: the URL parser's host as an address, or null when the host is a name. */
export function addressLiteral(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? null : bare;
}

/**
 * Why a partner may not register (or the worker may not call) this address under `rule`, or null. The URL
 * has passed the general check already (`webhookUrlProblem`, shared/schemas/webhooks.ts).
 */
export function partnerAddressProblem(url: URL, rule: PartnerAddressRule): string | null {
  if (rule === 'any') return null;
  if (url.protocol !== 'https:') return ADDRESS_MESSAGES.httpsOnly;
  // `localhost.` is `localhost` written fully qualified: the same host (and an address never ends in a dot).
  const host = url.hostname.toLowerCase().replace(/\.+$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return ADDRESS_MESSAGES.notPublic;
  const literal = addressLiteral(host);
  if (literal !== null && !isPublicAddress(literal)) return ADDRESS_MESSAGES.notPublic;
  return null;
}

/** An error of the guarded lookup: the POST fails with its French message and is retried like any failure. */
export class AddressRefused extends Error {
  readonly code = 'EWEBHOOKADDRESS';
}

type Resolve = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for the socket of a POST to a partner-registered endpoint: every address of the name must be
 * public, or the connection is never opened; the socket gets exactly the addresses judged here.
 * `resolve` is the system resolver (tests pass their own).
 */
export function publicOnlyLookup(resolve: Resolve = dnsLookup as unknown as Resolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { family: options.family as 0 | 4 | 6 | undefined, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((a) => !isPublicAddress(a.address));
      const problem =
        addresses.length === 0
          ? new AddressRefused(ADDRESS_MESSAGES.unresolved(hostname))
          : refused
            ? new AddressRefused(ADDRESS_MESSAGES.resolvedNotPublic(hostname, refused.address))
            : null;
      if (problem) return callback(problem, '', 0);
      // Node asks for every address when it tries both families (autoSelectFamily), else for one.
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
