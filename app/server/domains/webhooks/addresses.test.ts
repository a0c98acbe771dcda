// Where a partner-registered endpoint may point (docs/decisions/0051-partner-webhook-endpoints.md): the public
// Internet only, judged on address literals and, through the guarded lookup, on every address a name gives.
import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import {
  ADDRESS_MESSAGES,
  AddressRefused,
  isPublicAddress,
  partnerAddressProblem,
  publicOnlyLookup,
} from './addresses';
import { describeError } from './delivery-post';

const NOT_PUBLIC = [
  '0.0.0.0',
  '10.1.2.3',
  '100.64.0.1',
  '127.0.0.1',
  '127.255.255.254',
  '169.254.169.254',
  '172.16.0.1',
  '172.31.255.255',
  '192.0.0.8',
  '192.0.2.10',
  '192.168.1.1',
  '198.18.0.1',
  '198.51.100.7',
  '203.0.113.9',
  '224.0.0.1',
  '255.255.255.255',
  '::',
  '::1',
  '::ffff:10.0.0.1',
  '::ffff:127.0.0.1',
  '::ffff:8.8.8.8',
  '64:ff9b::a00:1',
  '2001:db8::1',
  '2002:a00:1::1',
  'fc00::1',
  'fd12:3456::1',
  'fe80::1',
  'ff02::1',
  // Outside 2000::/3, the only IPv6 space allocated as global unicast: IPv4-compatible (::/96, deprecated),
  // IPv4-translated (SIIT, ::ffff:0:0:0/96, which a translator on the path may carry to the IPv4 address),
  // SRv6 SIDs (5f00::/16), reserved space; and the documentation prefix 3fff::/20 (RFC 9637).
  '::7f00:1',
  '::127.0.0.1',
  '::a9fe:a9fe',
  '::ffff:0:7f00:1',
  '::ffff:0:a00:1',
  '5f00::1',
  '4000::1',
  'e000::1',
  '3fff::1',
  'localhost',
  'not an address',
];
const PUBLIC = [
  '8.8.8.8',
  '41.188.0.1',
  '172.15.255.255',
  '172.32.0.1',
  '2a00:1450:4007::200e',
  '2c0f:f8f0::1',
];

describe('isPublicAddress', () => {
  it.each(NOT_PUBLIC)('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));
  it.each(PUBLIC)('accepts %s', (address) => expect(isPublicAddress(address)).toBe(true));
});

describe('partnerAddressProblem', () => {
  const problem = (url: string) => partnerAddressProblem(new URL(url), 'public');
  it('asks HTTPS, and a public address when the host is one', () => {
    expect(problem('http://127.0.0.1:8080/hooks')).toBe(ADDRESS_MESSAGES.httpsOnly);
    expect(problem('http://partenaire.example.mg/hooks')).toBe(ADDRESS_MESSAGES.httpsOnly);
    for (const host of [
      '127.0.0.1',
      '127.1',
      '0x7f.0.0.1',
      '10.0.0.5',
      '[::1]',
      '[::ffff:7f00:1]',
      '[fd00::1]',
      '[::127.0.0.1]',
      '[::ffff:0:127.0.0.1]',
      '[::a9fe:a9fe]',
    ])
      expect(problem(`https://${host}/hooks`), host).toBe(ADDRESS_MESSAGES.notPublic);
    // A trailing dot names the same host (the fully qualified spelling).
    for (const host of [
      'localhost',
      'LOCALHOST',
      'api.localhost',
      'localhost.',
      'LocalHost.',
      'api.localhost.',
    ])
      expect(problem(`https://${host}/hooks`), host).toBe(ADDRESS_MESSAGES.notPublic);
    expect(problem('https://partenaire.example.mg/hooks')).toBeNull();
    expect(problem('https://8.8.8.8/hooks')).toBeNull();
    expect(problem('https://[2a00:1450:4007::200e]/hooks')).toBeNull();
  });
  it('lets everything through under WEBHOOK_PARTNER_ADDRESSES=any', () => {
    expect(partnerAddressProblem(new URL('http://127.0.0.1:9/'), 'any')).toBeNull();
  });
});

describe('publicOnlyLookup', () => {
  /** A resolver that answers `addresses` for any name, as dns.lookup with `all: true` does. */
  const resolver =
    (addresses: LookupAddress[]) =>
    (_host: string, _options: object, callback: (e: null, a: LookupAddress[]) => void) =>
      callback(null, addresses);
  const run = (addresses: LookupAddress[], all: boolean) =>
    new Promise<{ error: Error | null; result: unknown[] }>((resolve) =>
      publicOnlyLookup(resolver(addresses))('partenaire.example.mg', { all }, (error, ...result) =>
        resolve({ error, result }),
      ),
    );

  it('hands the socket the public addresses it judged, one or all as asked', async () => {
    const public4 = { address: '41.188.0.1', family: 4 };
    const public6 = { address: '2c0f:f8f0::1', family: 6 };
    expect(await run([public4, public6], false)).toEqual({ error: null, result: ['41.188.0.1', 4] });
    expect(await run([public4, public6], true)).toEqual({ error: null, result: [[public4, public6]] });
  });

  it('refuses a name of which any address is private, loopback or reserved', async () => {
    for (const bad of [
      '127.0.0.1',
      '10.0.0.5',
      '169.254.169.254',
      '::1',
      'fd00::1',
      '::7f00:1',
      '::ffff:0:a00:1',
    ]) {
      const { error } = await run(
        [
          { address: '41.188.0.1', family: 4 },
          { address: bad, family: bad.includes(':') ? 6 : 4 },
        ],
        false,
      );
      expect(error).toBeInstanceOf(AddressRefused);
      expect(error!.message).toBe(ADDRESS_MESSAGES.resolvedNotPublic('partenaire.example.mg', bad));
    }
    const { error } = await run([], true);
    expect(error!.message).toBe(ADDRESS_MESSAGES.unresolved('partenaire.example.mg'));
  });
});

describe('describeError', () => {
  it('names each attempt of a name with several addresses, whose AggregateError has no message of its own', () => {
    const both = new AggregateError(
      [new Error('connect ECONNREFUSED ::1:9'), new Error('connect ECONNREFUSED 127.0.0.1:9')],
      '',
    );
    expect(describeError(both)).toBe('connect ECONNREFUSED ::1:9 ; connect ECONNREFUSED 127.0.0.1:9');
    expect(describeError(new AggregateError([], ''))).toBe('Erreur inconnue');
    expect(describeError(Object.assign(new Error('x'), { name: 'TimeoutError' }))).toBe(
      'Pas de réponse dans le délai imparti.',
    );
  });
});
