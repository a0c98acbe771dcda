import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { createTestDatabase, testEngines, type TestDatabase } from '#tests/helpers/db';
import { openDatabase } from '#server/db/client';
import { createReport, mergePatch } from '#tests/helpers/signalements';
import {
  networkOf,
  PUBLIC_LOOKUPS_PER_ADDRESS,
  PUBLIC_LOOKUPS_PER_NETWORK,
  PublicLookupLimiter,
  purgeRateWindows,
} from '#server/http/public-limit';
import { createCipher } from '#server/crypto/cipher';

describe.each(await testEngines())('public summary and partner e-mail on %s', (engine) => {
  let t: TestApp;
  let creator: string;
  let other: string;
  let code: string;
  const SECRETS = [
    'Rakotobe Secret',
    'Auteur-Fonction-Secrète',
    'source-contact@secret.mg',
    'Victime Cachée',
    'Description confidentielle',
    'createur@example.mg',
    'Créateur Nom',
  ];
  beforeAll(async () => {
    t = await createTestApp(engine);
    await t.user('createur@example.mg', 'ROLE_USER', 'Créateur Nom');
    await t.user('autre@example.mg');
    creator = await t.login('createur@example.mg');
    other = await t.login('autre@example.mg');
    code = await createReport(t, creator, {
      subjects: ['/api/subjects/OTHERS'],
      autreObject: 'Trafic de bois de rose',
    });
    await mergePatch(t, creator, `/api/signalements/${code}`, {
      description: 'Description confidentielle',
      statut: '/api/statuts/TRAITE',
      niveau: '/api/niveaux/CRITIQUE',
      isRecurrent: true,
      actionProvisoires: ['Saisie conservatoire'],
      preuves: [],
    });
    await mergePatch(t, creator, `/api/signalements/${code}/localisation`, {
      region: '/api/regions/MG11',
      fokontany: 'Isotry',
    });
    const post = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, headers: { cookie: creator }, payload });
    await post('/api/presume_auteurs', {
      nomPrenom: 'Rakotobe Secret',
      fonction: 'Auteur-Fonction-Secrète',
      signalement: code,
    });
    await post('/api/sources', {
      nomPrenom: 'Source Anonyme',
      contact: 'source-contact@secret.mg',
      signalement: code,
    });
    await post('/api/victimes', { nomPrenom: 'Victime Cachée', signalement: code });
  });
  afterAll(async () => t?.close());

  it('returns the summary fields without a session, and no personal data', async () => {
    const res = await t.app.inject({ url: `/api/resume/signalements-details/${code}` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      code,
      canalPrincipal: { code: 'TELEPHONE', designation: 'Téléphone' },
      statut: { code: 'TRAITE' },
      niveau: { code: 'CRITIQUE' },
      isTreated: true,
      subjects: [{ code: 'OTHERS' }],
      autreObject: 'Trafic de bois de rose',
      region: 'Analamanga',
      fokontany: 'Isotry',
      isRecurrent: true,
      actionProvisoires: ['Saisie conservatoire'],
      preuves: [],
    });
    const text = res.body;
    for (const secret of [...SECRETS, 'Source Anonyme']) expect(text).not.toContain(secret);
    expect(Object.keys(body)).not.toEqual(expect.arrayContaining(['description', 'createdBy']));
    const trpc = await t.app.inject({
      url: `/trpc/signalements.resume?input=${encodeURIComponent(JSON.stringify({ code }))}`,
    });
    expect(trpc.statusCode).toBe(200);
    expect(trpc.json().result.data).toEqual(body);
  });

  it('answers 404 for an unknown code', async () => {
    const res = await t.app.inject({ url: '/api/resume/signalements-details/SIG-ZZZZ-ZZZZ' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Signalement non trouvé');
  });

  it('limits the calls per address on REST and tRPC alike, under any spelling and inside batches', async () => {
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    const rest = (ip: string, c = code) =>
      t.app.inject({ url: `/api/resume/signalements-details/${c}`, headers: from(ip) });
    const trpcInput = (c: string) => encodeURIComponent(JSON.stringify({ code: c }));
    // REST: the limit is taken on the matched route, whatever the spelling.
    for (let i = 0; i < PUBLIC_LOOKUPS_PER_ADDRESS; i++) {
      const url =
        i % 2 ? `/%61pi/resume/signalements-details/${code}` : `/api/resume/signalements-details/${code}`;
      expect((await t.app.inject({ url, headers: from('10.7.7.7') })).statusCode).toBe(200);
    }
    const refused = await rest('10.7.7.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe('Trop de requêtes. Veuillez patienter avant de réessayer.');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // tRPC, spelled otherwise, counts against the same address.
    const spelled = await t.app.inject({
      url: `/%74rpc/signalements%2Eresume?input=${trpcInput(code)}`,
      headers: from('10.7.7.7'),
    });
    expect(spelled.statusCode).toBe(429);
    // Every call of a batch counts: a batch of 10 from a fresh address uses 10 of its look-ups.
    const batch = Array.from({ length: 10 }, () => 'signalements.resume').join(',');
    const input = encodeURIComponent(
      JSON.stringify(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [i, { code }]))),
    );
    for (let round = 0; round < 3; round++) {
      const res = await t.app.inject({
        url: `/trpc/${batch}?batch=1&input=${input}`,
        headers: from('10.7.7.9'),
      });
      expect(res.statusCode, `round ${round}`).toBe(200);
    }
    const fourth = await t.app.inject({
      url: `/trpc/${batch}?batch=1&input=${input}`,
      headers: from('10.7.7.9'),
    });
    expect(
      (fourth.json() as Array<{ error?: { data: { code: string } } }>).every(
        (r) => r.error?.data.code === 'TOO_MANY_REQUESTS',
      ),
    ).toBe(true);
    expect((await rest('10.7.7.9')).statusCode).toBe(429);
    // Another address is not affected.
    expect((await rest('10.7.7.8')).statusCode).toBe(200);
  });

  it('writes a default French message for the partner, with the public link and no names', async () => {
    const res = await t.app.inject({
      url: `/api/signalement/${code}/default-mail-content`,
      headers: { cookie: other },
    });
    expect(res.statusCode).toBe(200);
    const { status, content } = res.json();
    expect(status).toBe('success');
    expect(content).toContain('Bonjour Ivorary,');
    expect(content).toContain(code);
    expect(content).toContain(`/admin/resume/${code}`);
    for (const secret of [
      'Rakotobe Secret',
      'Victime Cachée',
      'Source Anonyme',
      'Description confidentielle',
    ]) {
      expect(content).not.toContain(secret);
    }
  });

  it('queues the e-mail to the partner in the outbox with a history entry; validates; creator or admin only', async () => {
    const url = `/api/signalement/${code}/notify-partner`;
    // A non-admin writes only to the partner's own address (docs/decisions/0015): give IVY one.
    const p = t.db.t.partenaires;
    await t.db.transaction((tx) => tx.update(p).set({ email: 'p@partenaire.mg' }).where(eq(p.code, 'IVY')));
    const bad = await t.app.inject({
      method: 'POST',
      url,
      headers: { cookie: creator },
      payload: { email: 'pas-un-email', content: 'court' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().violations.map((v: { message: string }) => v.message)).toEqual([
      'Veuillez saisir une adresse email valide.',
      'Le contenu du message doit contenir au moins 10 caractères.',
    ]);
    const refused = await t.app.inject({
      method: 'POST',
      url,
      headers: { cookie: other },
      payload: { email: 'p@partenaire.mg', content: 'Un message assez long.' },
    });
    expect(refused.statusCode).toBe(403);
    const ok = await t.app.inject({
      method: 'POST',
      url,
      headers: { cookie: creator },
      payload: { email: 'p@partenaire.mg', content: 'Un message assez long.' },
    });
    expect(ok.statusCode).toBe(200);
    const queued = await t.db.read
      .select()
      .from(t.db.t.mailOutbox)
      .where(eq(t.db.t.mailOutbox.to, 'p@partenaire.mg'));
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({
      kind: 'partner-notification',
      subject: `Signalement ${code}`,
      text: 'Un message assez long.',
    });
    const history = (
      await t.app.inject({ url: `/api/signalements/${code}/historique`, headers: { cookie: creator } })
    ).json().member;
    expect(history[0]).toMatchObject({
      action: 'notification',
      changes: { email: { from: null, to: 'p@partenaire.mg' } },
    });
  });
});

describe('networkOf', () => {
  it('gives the /24 of an IPv4 address (mapped or not) and the /64 of an IPv6 address', () => {
    expect(networkOf('198.51.100.7')).toBe('198.51.100.0/24');
    expect(networkOf('::ffff:198.51.100.7')).toBe('198.51.100.0/24');
    expect(networkOf('2001:db8:1:2::a')).toBe('2001:db8:1:2::/64');
    expect(networkOf('2001:0db8:0001:0002:0003:0004:0005:0006')).toBe('2001:db8:1:2::/64');
    expect(networkOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(networkOf('::1')).toBe('0:0:0:0::/64');
    expect(networkOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(networkOf('pas une adresse')).toBe('pas une adresse');
  });
});

describe.each(await testEngines())('public look-up limiter on %s', (engine) => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase(engine);
  });
  afterAll(async () => tdb?.drop());

  it('counts per address and over all addresses, and opens a new window after a minute', async () => {
    const limiter = new PublicLookupLimiter(tdb.ctx, 3, 5);
    const now = 1_000_000;
    for (let i = 0; i < 3; i++) await limiter.take('a', now);
    await expect(limiter.take('a', now)).rejects.toThrow('Trop de requêtes');
    await limiter.take('b', now);
    await limiter.take('c', now);
    // 3 + 1 + 1 = 5 over all addresses (a look-up refused by its address does not use the ceiling): the
    // sixth is over it.
    await expect(limiter.take('d', now)).rejects.toThrow('Trop de requêtes');
    await expect(limiter.take('a', now + 59_999)).rejects.toThrow();
    await expect(limiter.take('a', now + 60_000)).resolves.toBeUndefined();
  });

  it('holds under concurrency: of 40 simultaneous look-ups from one address, exactly the limit passes', async () => {
    const limiter = new PublicLookupLimiter(tdb.ctx, 10, 1000);
    const now = 5_000_000;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, () => limiter.take('concurrent', now)),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(10);
  });

  it('is shared by two processes’ connections to one database (several servers)', async () => {
    const other = openDatabase(tdb.url);
    try {
      const a = new PublicLookupLimiter(tdb.ctx, 4, 1000);
      // The servers share the data key (README, several servers): the same address gives the same counter.
      const b = new PublicLookupLimiter({ db: other, cipher: createCipher(tdb.dataKey) }, 4, 1000);
      const now = 9_000_000;
      await a.take('partage', now);
      await b.take('partage', now);
      await a.take('partage', now);
      await b.take('partage', now);
      await expect(a.take('partage', now)).rejects.toThrow('Trop de requêtes');
      await expect(b.take('partage', now)).rejects.toThrow('Trop de requêtes');
    } finally {
      await other.close();
    }
  });

  it('stores no address in clear, refuses again without writing, and leaves old windows to the hourly purge', async () => {
    const w = tdb.db.t.rateWindows;
    const limiter = new PublicLookupLimiter(tdb.ctx, 2, 1000);
    const now = 20_000_000;
    const ip = '203.0.113.77';
    for (let i = 0; i < 3; i++) await limiter.take(ip, now).catch(() => undefined);
    const rows = await tdb.db.read.select().from(w);
    expect(JSON.stringify(rows)).not.toContain(ip);
    const counted = async () => (await tdb.db.read.select().from(w)).reduce((sum, r) => sum + r.count, 0);
    const before = await counted();
    // Refused by this process until the window ends: nothing more is written.
    for (let i = 0; i < 20; i++)
      await expect(limiter.take(ip, now + 1000)).rejects.toThrow('Trop de requêtes');
    expect(await counted()).toBe(before);
    // The windows of that minute are gone after the purge that follows it, not before.
    const ofThisMinute = async () =>
      (await tdb.db.read.select().from(w)).filter((r) => r.startedAt.getTime() === now);
    // The address, its network and the ceiling of the networks' first look-ups.
    await purgeRateWindows(tdb.db, now + 30_000);
    expect(await ofThisMinute()).toHaveLength(3);
    expect(JSON.stringify(await tdb.db.read.select().from(w))).not.toContain('203.0.113.');
    expect(await purgeRateWindows(tdb.db, now + 120_000)).toBeGreaterThanOrEqual(3);
    expect(await ofThisMinute()).toEqual([]);
  });

  // A distributed flood (decision 0015, "The public summary") used to fill the ceiling shared by all
  // addresses and close the page to everyone for the rest of the minute. Production limits, concurrent
  // look-ups, a window of its own each (later than the other tests' windows, which share this database).
  const flood = async (limiter: PublicLookupLimiter, addresses: string[], each: number, now: number) => {
    const outcomes = await Promise.allSettled(
      addresses.flatMap((ip) => Array.from({ length: each }, () => limiter.take(ip, now))),
    );
    return outcomes.filter((o) => o.status === 'fulfilled').length;
  };

  it('20 flooding addresses in 20 networks, then 20 more, do not refuse a fresh address', async () => {
    const limiter = new PublicLookupLimiter(tdb.ctx);
    const now = 50_000_000;
    const twenty = Array.from({ length: 20 }, (_, i) => `198.51.${i}.10`);
    expect(await flood(limiter, twenty, 40, now)).toBe(20 * PUBLIC_LOOKUPS_PER_ADDRESS);
    await expect(limiter.take('192.0.2.77', now)).resolves.toBeUndefined();
    // Enough networks to fill the ceiling of the look-ups past each network's first ones.
    const more = Array.from({ length: 20 }, (_, i) => `198.18.${i}.10`);
    const served = await flood(limiter, more, 40, now);
    expect(served).toBeLessThan(20 * PUBLIC_LOOKUPS_PER_ADDRESS);
    await expect(limiter.take('192.0.2.78', now)).resolves.toBeUndefined();
    await expect(limiter.take('2001:db8:77::1', now)).resolves.toBeUndefined();
    // A flooder stays refused.
    await expect(limiter.take('198.51.0.10', now)).rejects.toThrow('Trop de requêtes');
  });

  it('many flooding addresses in one /24 or one /64 share their network’s limit and do not refuse a fresh address', async () => {
    const limiter = new PublicLookupLimiter(tdb.ctx);
    const now = 60_000_000;
    const oneSlash24 = Array.from({ length: 200 }, (_, i) => `100.64.7.${i + 1}`);
    expect(await flood(limiter, oneSlash24, 5, now)).toBe(PUBLIC_LOOKUPS_PER_NETWORK);
    const oneSlash64 = Array.from({ length: 200 }, (_, i) => `2001:db8:1:2::${(i + 1).toString(16)}`);
    expect(await flood(limiter, oneSlash64, 5, now)).toBe(PUBLIC_LOOKUPS_PER_NETWORK);
    await expect(limiter.take('192.0.2.79', now)).resolves.toBeUndefined();
    await expect(limiter.take('2001:db8:1:3::1', now)).resolves.toBeUndefined();
    // A neighbour in the flooded /24 shares its network's fate (decision 0015).
    await expect(limiter.take('100.64.7.250', now)).rejects.toThrow('Trop de requêtes');
  });
});
