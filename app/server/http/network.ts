// What a client address stands for in the limits (decision 0015). One IPv6 subscriber commonly holds a
// whole /64 and can rotate through it at will, so per-address limits key IPv6 on its /64; an IPv4
// address is kept exact for log-ins (a NAT'd office shares one), and the public look-up also counts
// the /24 (public-limit.ts).
import { isIPv4, isIPv6 } from 'node:net';

/**
 * The network an address belongs to for the limits: its /24 (IPv4, IPv4-mapped IPv6 included) or its
 * /64 (IPv6, where one subscriber commonly holds a whole /64). Anything else is its own network.
 */
export function networkOf(ip: string): string {
  const mapped = unmapped(ip);
  if (isIPv4(mapped)) return `${mapped.split('.').slice(0, 3).join('.')}.0/24`;
  const bare = ip.split('%')[0]!;
  if (!isIPv6(bare)) return ip;
  const [head = '', tail] = bare.split('::');
  const first = head ? head.split(':') : [];
  const last = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? first
      : [...first, ...Array<string>(Math.max(0, 8 - first.length - last.length)).fill('0'), ...last];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * The client a log-in is counted for (throttle and hashing share): an IPv4 address exactly (mapped
 * ones unwrapped), an IPv6 address by its /64. The access log keeps the exact address.
 */
export function clientKeyOf(ip: string): string {
  const mapped = unmapped(ip);
  return isIPv4(mapped) ? mapped : networkOf(ip);
}

function unmapped(ip: string): string {
  return ip.toLowerCase().startsWith('::ffff:') ? ip.slice(7) : ip;
}
