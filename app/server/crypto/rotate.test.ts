// Rotation of the data key: after it, the old key is refused, the new one reads every source, their
// history, TOTP keys, internal notes and webhook signing secrets (current and former), and search by exact
// name still works (the blind index is recomputed).
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport } from '#tests/helpers/signalements';
import { systemClock } from '../context';
import { openDatabase } from '../db/client';
import { DEFAULT_WEBHOOK_POLICY, deliverDueWebhooks } from '../domains/webhooks/delivery';
import { createCipher, formatDataKey, generateDataKey, parseDataKey } from './cipher';
import { DataKeyError, openDataKey, verifierOf } from './data-key';
import { rotateDataKey } from './rotate';
import { openWebhookSecret, WEBHOOK_PREVIOUS_SECRET, WEBHOOK_SECRET } from './webhook-secrets';

/** The Standard Webhooks check of a receiver: some `v1,` entry of the header is this secret's HMAC. */
function signedWith(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const expected = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
    .update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`)
    .digest('base64');
  return String(headers['webhook-signature']).split(' ').includes(`v1,${expected}`);
}

const NAME = 'Razafimahatratra Tournante';
// The test app of this process serves the database and is handed the new key (its context's cipher) below.
// A server is stopped for a rotation: this one keeps serving, so its read tasks run on this thread, which
// gets the new key, rather than on a task thread that read the old one when it started.
const inProcess = { sameProcess: true };
const PHONE = '+261 32 40 404 04';
const NOTE = 'Rappeler la voisine apres la rotation';

describe.each(await testEngines())('rotation of the data key on %s', (engine) => {
  let t: TestApp;
  let cookie: string;
  let report: string;
  let dir: string;
  let adminCookie: string;
  let hooks: Server;
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  /** The endpoint's id, its first secret (now the former one, in its grace period) and its current one. */
  let endpoint: { id: number; former: string; current: string };

  const send = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: {
        cookie,
        ...SAME_ORIGIN,
        ...(body === undefined
          ? {}
          : { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const opens = async (env: { DATA_KEY?: string; DATA_KEY_FILE?: string }) => {
    const db = openDatabase(t.config.DATABASE_URL);
    try {
      return await openDataKey(db, { DATABASE_URL: t.config.DATABASE_URL, ...env }).then(
        () => 'ok',
        (error: unknown) => (error instanceof DataKeyError ? 'refused' : Promise.reject(error)),
      );
    } finally {
      await db.close();
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'signalements-rotate-'));
    t = await createTestApp(engine, {}, { taskThreads: 0 });
    await t.user('createur@example.mg', 'ROLE_USER', 'Rabe Createur');
    cookie = await t.login('createur@example.mg');
    // An administrator enrols in two-factor log-in: a TOTP key to re-encrypt.
    await t.user('admin@example.mg', 'ROLE_ADMIN', 'Rasoa Admin');
    adminCookie = await t.login('admin@example.mg');
    // A webhook endpoint whose secret was renewed: a current and a former secret to re-encrypt.
    hooks = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    const adminCall = async (path: string, input: object) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/trpc/${path}`,
        headers: { cookie: adminCookie, ...SAME_ORIGIN },
        payload: input,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().result.data as { id: number; secret: string };
    };
    const registered = await adminCall('webhooks.createEndpoint', {
      partenaire: 'IVY',
      url: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`,
    });
    const renewed = await adminCall('webhooks.rotateSecret', { id: registered.id });
    endpoint = { id: registered.id, former: registered.secret, current: renewed.secret };
    report = await createReport(t, cookie);
    // With an Idempotency-Key: its stored answer (which names the source) is encrypted too.
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/sources',
      headers: { cookie, ...SAME_ORIGIN, 'idempotency-key': 'cle-de-rotation-1' },
      payload: { signalement: `/api/signalements/${report}`, nomPrenom: NAME, contact: '034 00 000 01' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect((await send('PATCH', created.json()['@id'], { nomPrenom: NAME, contact: PHONE })).statusCode).toBe(
      200,
    );
    expect((await send('POST', `/api/signalements/${report}/notes`, { texte: NOTE })).statusCode).toBe(201);
    // As the server's first start would have left it: a verifier for the key in use.
    await t.db.transaction((tx) =>
      tx.insert(t.db.t.dataKeyCheck).values({ verifier: verifierOf(t.ctx.cipher!) }),
    );
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => (hooks ? hooks.close(() => resolve()) : resolve()));
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('re-encrypts under a new key file, keeps the old file, and the old key no longer opens the database', async () => {
    const keyFile = join(dir, 'data.key');
    writeFileSync(keyFile, `${formatDataKey(t.dataKey)}\n`, { mode: 0o600 });
    const result = await rotateDataKey(
      { DATABASE_URL: t.config.DATABASE_URL, DATA_KEY_FILE: keyFile },
      undefined,
      new Date('2026-01-02T03:04:05Z'),
      inProcess,
    );
    expect(result).toMatchObject({
      origin: 'file',
      sources: 1,
      totpKeys: 1,
      notes: 1,
      webhookSecrets: 1,
      keyFile,
    });
    expect(result.history).toBeGreaterThanOrEqual(2);

    const newKey = parseDataKey(readFileSync(keyFile, 'utf8'))!;
    expect(newKey).toEqual(result.newKey);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).sort()).toEqual(['data.key', 'data.key.2026-01-02T03-04-05-000Z.old']);
    expect(parseDataKey(readFileSync(result.oldKeyFile!, 'utf8'))).toEqual(t.dataKey);
    expect(statSync(result.oldKeyFile!).mode & 0o777).toBe(0o600);

    expect(await opens({ DATA_KEY: formatDataKey(t.dataKey) })).toBe('refused');
    expect(await opens({ DATA_KEY_FILE: result.oldKeyFile! })).toBe('refused');
    expect(await opens({ DATA_KEY_FILE: keyFile })).toBe('ok');

    // The application, now on the new key, reads the sources and their history and finds them by name.
    t.ctx.cipher = createCipher(newKey);
    const sources = (await send('GET', `/api/signalements/${report}/source`)).json();
    expect(sources.sources).toMatchObject([{ nomPrenom: NAME, contact: PHONE }]);
    expect((await send('GET', `/api/signalements/${report}/historique`)).body).toContain('034 00 000 01');
    expect(
      (await send('GET', `/api/signalements?search=${encodeURIComponent(NAME)}`)).json().totalItems,
    ).toBe(1);
    // The stored answer of the idempotent create opens under the new key (a replay decrypts it to check the
    // request; a failure would be a 500), and the replay answers the source as it is today (decision 0020).
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/sources',
      headers: { cookie, ...SAME_ORIGIN, 'idempotency-key': 'cle-de-rotation-1' },
      payload: { signalement: `/api/signalements/${report}`, nomPrenom: NAME, contact: '034 00 000 01' },
    });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toMatchObject({ nomPrenom: NAME, contact: PHONE });
    // The note is sealed under the new key (the old one no longer opens it) and served in clear.
    const n = t.db.t.reportNotes;
    const [stored] = await t.db.read.select({ code: n.code, texte: n.texte }).from(n);
    expect(() =>
      createCipher(t.dataKey).decrypt(stored!.texte, 'report_notes.texte', stored!.code),
    ).toThrow();
    expect((await send('GET', `/api/signalements/${report}/notes`)).json().member).toMatchObject([
      { texte: NOTE },
    ]);
    // The TOTP key still checks the administrator's code.
    expect(await t.login('admin@example.mg')).toMatch(/^session=/);
    // Both webhook secrets are sealed under the new key only, and a delivery still carries both signatures.
    const e = t.db.t.webhookEndpoints;
    const [hook] = await t.db.read.select().from(e).where(eq(e.id, endpoint.id));
    const oldCipher = createCipher(t.dataKey);
    expect(() => openWebhookSecret(oldCipher, WEBHOOK_SECRET, endpoint.id, hook!.secret)).toThrow();
    expect(() =>
      openWebhookSecret(oldCipher, WEBHOOK_PREVIOUS_SECRET, endpoint.id, hook!.previousSecret!),
    ).toThrow();
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/signalements/${report}`,
      headers: { cookie: adminCookie, ...SAME_ORIGIN, 'content-type': 'application/merge-patch+json' },
      payload: JSON.stringify({ statut: '/api/statuts/EN_COURS' }),
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const sent = await deliverDueWebhooks(t.db, DEFAULT_WEBHOOK_POLICY, {
      signal: new AbortController().signal,
      log: { info: () => undefined, warn: () => undefined },
      clock: systemClock,
      cipher: t.ctx.cipher,
      shouldStop: () => false,
    });
    expect(sent).toBe(1);
    expect(received).toHaveLength(1);
    expect(signedWith(endpoint.current, received[0]!.headers, received[0]!.body)).toBe(true);
    expect(signedWith(endpoint.former, received[0]!.headers, received[0]!.body)).toBe(true);
  });

  it('with DATA_KEY, hands back the chosen new key to be set, and refuses to "rotate" to the same key', async () => {
    const current = parseDataKey(readFileSync(join(dir, 'data.key'), 'utf8'))!;
    const next = generateDataKey();
    const result = await rotateDataKey(
      { DATABASE_URL: t.config.DATABASE_URL, DATA_KEY: formatDataKey(current) },
      next,
      undefined,
      inProcess,
    );
    expect(result).toMatchObject({ origin: 'env', oldKeyFile: null });
    expect(result.newKey).toEqual(next);
    expect(await opens({ DATA_KEY: formatDataKey(current) })).toBe('refused');
    expect(await opens({ DATA_KEY: next.toString('hex') })).toBe('ok');
    await expect(
      rotateDataKey(
        { DATABASE_URL: t.config.DATABASE_URL, DATA_KEY: formatDataKey(next) },
        next,
        undefined,
        inProcess,
      ),
    ).rejects.toThrow('La nouvelle clé est identique à la clé actuelle');
    t.ctx.cipher = createCipher(next);
    expect((await send('GET', `/api/signalements/${report}/source`)).json().sources).toMatchObject([
      { nomPrenom: NAME },
    ]);
    expect((await send('GET', `/api/signalements/${report}/notes`)).json().member).toMatchObject([
      { texte: NOTE },
    ]);
  });
});
