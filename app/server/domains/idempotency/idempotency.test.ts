// Idempotent creates (decision 0020): a POST repeated with the same Idempotency-Key by the same user returns
// the first answer and never makes a second row, through REST and tRPC, on both engines, concurrently, and
// after a failure between the commit and the reply.
import { count, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { PEOPLE, SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport } from '#tests/helpers/signalements';
import { IDEMPOTENT_CREATES } from '#shared/constants';
import { SESSION_LIFETIME_MS } from '../auth/session';
import { IDEMPOTENCY_MESSAGES } from './service';

const DAY_MS = 24 * 3600_000;

describe.each(await testEngines())('idempotent creates on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let agent: string;
  let report: string;
  let keyNumber = 0;
  const newKey = () => `cle-test-${engine}-${++keyNumber}-${Date.now()}`;
  // A reply that fails after the commit (the connection drops, the process dies before answering).
  const failing = new Set<string>();

  beforeAll(async () => {
    t = await createTestApp(
      engine,
      {},
      {
        beforeReady(app) {
          app.addHook('onSend', async (request) => {
            const key = request.headers['idempotency-key'];
            if (typeof key === 'string' && failing.delete(key))
              throw new Error('réponse perdue après validation');
          });
        },
      },
    );
    await t.user('admin@example.mg', 'ROLE_ADMIN');
    await t.user('agent@example.mg', 'ROLE_GESTIONNAIRE');
    await t.user('autre@example.mg', 'ROLE_GESTIONNAIRE');
    admin = await t.login('admin@example.mg');
    agent = await t.login('agent@example.mg');
    report = await createReport(t, agent);
  });
  afterAll(async () => t?.close());

  const post = (url: string, cookie: string, payload: object, key?: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { cookie, ...SAME_ORIGIN, ...(key ? { 'idempotency-key': key } : {}) },
      payload,
    });
  const trpc = (path: string, cookie: string, payload: object, key?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/trpc/${path}`,
      headers: { cookie, ...SAME_ORIGIN, ...(key ? { 'idempotency-key': key } : {}) },
      payload,
    });
  const rows = async (table: keyof TestApp['db']['t']) => {
    const [row] = await t.db.read.select({ n: count() }).from(t.db.t[table] as never);
    return Number((row as unknown as { n: number }).n);
  };
  // The creation form's fields; `autreObject` tells one submission from another.
  const reportPayload = (autreObject: string) => ({
    partenaire: '/api/partenaires/IVY',
    subjects: ['/api/subjects/CORRUPTION'],
    canalPrincipal: '/api/canals/TELEPHONE',
    signalementAt: '2025-03-10',
    autreObject,
  });

  const cases = () =>
    [
      {
        url: '/api/signalements',
        cookie: agent,
        table: 'signalements',
        payload: reportPayload('Un signalement envoyé deux fois.'),
      },
      {
        url: '/api/presume_auteurs',
        cookie: agent,
        table: 'presumeAuteurs',
        payload: { signalement: `/api/signalements/${report}`, nomPrenom: PEOPLE.auteur },
      },
      {
        url: '/api/sources',
        cookie: agent,
        table: 'sources',
        payload: {
          signalement: `/api/signalements/${report}`,
          nomPrenom: PEOPLE.source,
          contact: PEOPLE.sourceContact,
          canaux: ['/api/canals/TELEPHONE'],
        },
      },
      {
        url: '/api/victimes',
        cookie: agent,
        table: 'victimes',
        payload: { signalement: `/api/signalements/${report}`, nomPrenom: PEOPLE.victime },
      },
      {
        url: `/api/signalements/${report}/notes`,
        cookie: agent,
        table: 'reportNotes',
        payload: { texte: 'Note idempotente' },
      },
      {
        url: '/api/partenaires',
        cookie: admin,
        table: 'partenaires',
        payload: { designation: 'Partenaire Idempotent', email: 'idem@partenaire.example.mg' },
      },
      {
        url: '/api/projects',
        cookie: agent,
        table: 'projects',
        payload: { sigle: 'IDEM', designation: 'Projet idempotent', owner: '/api/partenaires/IVY' },
      },
      {
        url: '/api/utilisateur/create-user',
        cookie: admin,
        table: 'utilisateurs',
        payload: {
          email: `idem-${engine}@example.mg`,
          nomPrenom: 'Rabe Idempotent',
          utilisateurRole: '/api/utilisateur_roles/ROLE_USER',
        },
      },
    ] as const;

  it('REST: each create repeated with its key answers the first answer again, with one row', async () => {
    for (const c of cases()) {
      const key = newKey();
      const before = await rows(c.table);
      const first = await post(c.url, c.cookie, c.payload, key);
      expect(first.statusCode, `${c.url} ${first.body}`).toBe(201);
      const again = await post(c.url, c.cookie, c.payload, key);
      expect(again.statusCode, c.url).toBe(201);
      expect(again.json(), c.url).toEqual(first.json());
      expect(again.headers['idempotent-replayed'], c.url).toBe('true');
      expect(first.headers['idempotent-replayed'], c.url).toBeUndefined();
      expect(await rows(c.table), c.url).toBe(before + 1);
    }
  });

  it('tRPC: every create the client sends with a key (IDEMPOTENT_CREATES) answers a repeat with the first answer', async () => {
    const inputs: Record<string, { cookie: () => string; table: keyof TestApp['db']['t']; input: object }> = {
      'signalements.create': {
        cookie: () => agent,
        table: 'signalements',
        input: {
          partenaire: 'IVY',
          subjects: ['CORRUPTION'],
          canalPrincipal: 'TELEPHONE',
          signalementAt: '2025-03-11',
        },
      },
      'auteurs.create': {
        cookie: () => agent,
        table: 'presumeAuteurs',
        input: { signalement: report, nomPrenom: 'Auteur tRPC' },
      },
      'sources.create': {
        cookie: () => agent,
        table: 'sources',
        input: { signalement: report, nomPrenom: 'Source tRPC', canaux: ['TELEPHONE'] },
      },
      'victimes.create': {
        cookie: () => agent,
        table: 'victimes',
        input: { signalement: report, nomPrenom: 'Victime tRPC' },
      },
      'notes.create': {
        cookie: () => agent,
        table: 'reportNotes',
        input: { signalement: report, texte: 'Note tRPC' },
      },
      'partenaires.create': {
        cookie: () => admin,
        table: 'partenaires',
        input: { designation: 'Partenaire tRPC', email: 'trpc@partenaire.example.mg' },
      },
      'projects.create': {
        cookie: () => agent,
        table: 'projects',
        input: { sigle: 'TRPC', designation: 'Projet tRPC', owner: 'IVY' },
      },
      'utilisateurs.create': {
        cookie: () => admin,
        table: 'utilisateurs',
        input: { email: `trpc-${engine}@example.mg`, nomPrenom: 'Rabe tRPC', utilisateurRole: 'ROLE_USER' },
      },
    };
    expect(Object.keys(inputs).sort()).toEqual([...IDEMPOTENT_CREATES].sort());
    for (const [path, c] of Object.entries(inputs)) {
      const key = newKey();
      const before = await rows(c.table);
      const first = await trpc(path, c.cookie(), c.input, key);
      expect(first.statusCode, `${path} ${first.body}`).toBe(200);
      const again = await trpc(path, c.cookie(), c.input, key);
      expect(again.json(), path).toEqual(first.json());
      expect(again.headers['idempotent-replayed'], path).toBe('true');
      expect(await rows(c.table), path).toBe(before + 1);
    }
  });

  it('without a key, a repeat creates again (the header is what makes a create idempotent)', async () => {
    const before = await rows('signalements');
    const payload = reportPayload('Deux fois sans clé.');
    const a = await post('/api/signalements', agent, payload);
    const b = await post('/api/signalements', agent, payload);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().code).not.toBe(b.json().code);
    expect(await rows('signalements')).toBe(before + 2);
  });

  it('a failure after the commit (the reply is lost): the retry gets the created report, not a second one', async () => {
    const key = newKey();
    const before = await rows('signalements');
    failing.add(key);
    const lost = await post('/api/signalements', agent, reportPayload('Réponse perdue.'), key);
    expect(lost.statusCode).toBe(500);
    expect(await rows('signalements')).toBe(before + 1);
    const retry = await post('/api/signalements', agent, reportPayload('Réponse perdue.'), key);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await rows('signalements')).toBe(before + 1);
    const [last] = await t.db.rows<{ code: string }>(
      sql`select code from signalements order by id desc limit 1`,
    );
    expect(retry.json().code).toBe(last!.code);
  });

  it('tRPC: the same, after a failure between the commit and the reply', async () => {
    const key = newKey();
    const before = await rows('sources');
    const input = { signalement: report, nomPrenom: `${PEOPLE.source} bis`, canaux: ['TELEPHONE'] };
    failing.add(key);
    const lost = await trpc('sources.create', agent, input, key);
    expect(lost.statusCode).toBe(500);
    const retry = await trpc('sources.create', agent, input, key);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().result.data.nomPrenom).toBe(`${PEOPLE.source} bis`);
    expect(await rows('sources')).toBe(before + 1);
  });

  it('concurrent repeats of one key create one report and all get its answer', async () => {
    const key = newKey();
    const before = await rows('signalements');
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        post('/api/signalements', agent, reportPayload('Six fois en même temps.'), key),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(201));
    expect(new Set(answers.map((a) => a.json().code)).size).toBe(1);
    expect(await rows('signalements')).toBe(before + 1);
  });

  it('refuses a key reused for another request (409), a malformed key (400), and a batch with a key (400), in French', async () => {
    const key = newKey();
    expect((await post('/api/signalements', agent, reportPayload('Premier.'), key)).statusCode).toBe(201);
    const before = await rows('signalements');
    const other = await post('/api/signalements', agent, reportPayload('Autre contenu.'), key);
    expect(other.statusCode).toBe(409);
    expect(other.json().message).toBe(IDEMPOTENCY_MESSAGES.reused);
    const elsewhere = await post(
      '/api/presume_auteurs',
      agent,
      { signalement: `/api/signalements/${report}`, nomPrenom: 'X Y' },
      key,
    );
    expect(elsewhere.statusCode).toBe(409);
    for (const bad of ['court', 'a'.repeat(129), 'clé avec espaces', 'cle/avec/barres']) {
      const res = await post('/api/signalements', agent, reportPayload('Clé invalide.'), bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toBe(IDEMPOTENCY_MESSAGES.invalidKey);
    }
    expect(await rows('signalements')).toBe(before);

    const batch = await t.app.inject({
      method: 'POST',
      url: '/trpc/projects.create,projects.create?batch=1',
      headers: { cookie: agent, ...SAME_ORIGIN, 'idempotency-key': newKey() },
      payload: {
        0: { sigle: 'B1', designation: 'Projet lot 1', owner: 'IVY' },
        1: { sigle: 'B2', designation: 'Projet lot 2', owner: 'IVY' },
      },
    });
    const results = batch.json() as Array<{ error?: { message: string } }>;
    expect(results.map((r) => r.error?.message)).toEqual([
      IDEMPOTENCY_MESSAGES.batched,
      IDEMPOTENCY_MESSAGES.batched,
    ]);
  });

  it('keys belong to their user: the same key from another user is another request', async () => {
    const key = newKey();
    const other = await t.login('autre@example.mg');
    const a = await post('/api/signalements', agent, reportPayload('Même clé, deux personnes.'), key);
    const b = await post('/api/signalements', other, reportPayload('Même clé, deux personnes.'), key);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().code).not.toBe(b.json().code);
  });

  it('stores the answer encrypted: no name of a person in the table', async () => {
    const stored = await t.db.rows<{ response: string }>(sql`select response from idempotency_keys`);
    expect(stored.length).toBeGreaterThan(0);
    for (const { response } of stored) {
      for (const name of [PEOPLE.source, PEOPLE.sourceContact, PEOPLE.victime, PEOPLE.auteur])
        expect(response).not.toContain(name);
    }
  });

  const ageKey = (key: string, ms: number) =>
    t.db.execute(
      sql`update idempotency_keys set created_at = ${engine === 'sqlite' ? Date.now() - ms : new Date(Date.now() - ms)} where key = ${key}`,
    );

  it("remembers a key as long as a session lives: the outbox's resend days later creates nothing", async () => {
    const key = newKey();
    const first = await post('/api/signalements', agent, reportPayload('Renvoyé trois jours après.'), key);
    expect(first.statusCode).toBe(201);
    await ageKey(key, 3 * DAY_MS);
    const later = await post('/api/signalements', agent, reportPayload('Renvoyé trois jours après.'), key);
    expect(later.statusCode).toBe(201);
    expect(later.json().code).toBe(first.json().code);
    expect(later.headers['idempotent-replayed']).toBe('true');
  });

  it("forgets a key after a session's lifetime: the same key then creates again", async () => {
    const key = newKey();
    const first = await post('/api/signalements', agent, reportPayload('Un mois après.'), key);
    expect(first.statusCode).toBe(201);
    await ageKey(key, SESSION_LIFETIME_MS + 3600_000);
    const later = await post('/api/signalements', agent, reportPayload('Un mois après.'), key);
    expect(later.statusCode).toBe(201);
    expect(later.json().code).not.toBe(first.json().code);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
  });
});
