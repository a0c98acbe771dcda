// The shared setup of the webhook test files (docs/decisions/0039-signed-webhooks.md): a receiver on loopback,
// the receiver's own signature check, and one suite per file and engine with the helpers both files call.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Engine } from '#server/db/client';
import { mergePatch } from '#tests/helpers/signalements';
import { serverSuite } from '#tests/helpers/suite';
import { systemClock, type Clock } from '#server/context';
import { DEFAULT_WEBHOOK_POLICY, deliverDueWebhooks, type WebhookPolicy } from './delivery';
import { startWebhookWorker, type WebhookWorker } from './worker';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the receiver answers to one request: a status, and optionally a body and headers. */
type Answer = { status: number; body?: string; headers?: Record<string, string> };

/**
 * A receiver on 127.0.0.1 that records every request and answers as the test says; it listens from
 * `listen()` on (the suite's beforeAll), so that the suite can hand it out at once.
 */
export function createReceiver() {
  const received: Received[] = [];
  let answer: (request: Received) => Answer = () => ({ status: 204 });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = {
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(request);
      const a = answer(request);
      res.writeHead(a.status, a.headers);
      res.end(a.body ?? '');
    });
  });
  let port = 0;
  return {
    received,
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    },
    url: (path = '/webhooks') => `http://127.0.0.1:${port}${path}`,
    answerWith(fn: (request: Received) => Answer) {
      answer = fn;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The receiver's own check, written from the specification rather than imported: the key is the base64
 * after `whsec_`, the content `id.timestamp.body`, any `v1,` entry of the space-separated header may match.
 */
export function verifyStandardWebhook(
  secret: string,
  headers: IncomingHttpHeaders,
  body: string,
  nowMs = Date.now(),
): boolean {
  const id = String(headers['webhook-id']);
  const timestamp = String(headers['webhook-timestamp']);
  if (!/^\d+$/.test(timestamp) || Math.abs(nowMs / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.split('_')[1]!, 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return String(headers['webhook-signature'])
    .split(' ')
    .some((entry) => {
      const [version, signature] = entry.split(',');
      const given = Buffer.from(signature ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

/**
 * Call in the describe block of one engine: one test app (serverSuite), one receiver, and the helpers the
 * webhook tests share; after each test the workers stop and the endpoints and deliveries are deleted.
 */
export function webhookSuite(engine: Engine, env: Record<string, string> = {}) {
  const { app: t, admin, user } = serverSuite(engine, { env });
  const receiver = createReceiver();
  const workers: WebhookWorker[] = [];
  /** Everything the workers logged, to prove a secret never is. */
  const logged: unknown[] = [];
  const record = (obj: object, msg: string) => void logged.push(obj, msg);
  const log = { info: record, warn: record, error: record };
  const worker = (maxAttempts = 3) => {
    const w = startWebhookWorker({
      db: t.db,
      cipher: t.ctx.cipher!,
      log,
      policy: { maxAttempts, retryBaseMs: 5, retryMaxMs: 20, timeoutMs: 2000 },
      pollMs: 5,
      maxIdleMs: 50,
    });
    workers.push(w);
    return w;
  };

  const trpc = async (path: string, input: unknown, cookie = admin.cookie) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/trpc/${path}`,
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
      payload: input as object,
    });
    return { status: res.statusCode, body: res.json() };
  };
  const query = async (path: string, input: unknown) => {
    const res = await t.app.inject({
      url: `/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
      headers: { cookie: admin.cookie },
    });
    expect(res.statusCode).toBe(200);
    return res.json().result.data;
  };
  /** Registers an endpoint of partner IVY (the reports' partner) through the screen's procedure. */
  const register = async (url = receiver.url()) => {
    const res = await trpc('webhooks.createEndpoint', { partenaire: 'IVY', url });
    expect(res.status).toBe(200);
    return res.body.result.data as { id: number; secret: string };
  };
  const setStatut = async (code: string, statut: string) =>
    expect(
      (await mergePatch(t, admin.cookie, `/api/signalements/${code}`, { statut: `/api/statuts/${statut}` }))
        .statusCode,
    ).toBe(200);
  const deliveries = () =>
    t.db.read.select().from(t.db.t.webhookDeliveries).orderBy(t.db.t.webhookDeliveries.id);
  /** One delivery pass on the main thread, at the time `clock` says, under the default policy or `policy`. */
  const pass = (clock: Clock = systemClock, policy: Partial<WebhookPolicy> = {}) =>
    deliverDueWebhooks(
      t.db,
      { ...DEFAULT_WEBHOOK_POLICY, ...policy },
      {
        signal: new AbortController().signal,
        log,
        clock,
        cipher: t.ctx.cipher!,
        shouldStop: () => false,
      },
    );
  const endpointRow = async (id: number) => {
    const e = t.db.t.webhookEndpoints;
    const [row] = await t.db.read.select().from(e).where(eq(e.id, id));
    return row!;
  };
  const rotate = async (id: number) => {
    const res = await trpc('webhooks.rotateSecret', { id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.result.data as { id: number; secret: string; ancienSecretJusquA: string | null };
  };
  const payloadOf = (r: Received) => JSON.parse(r.body) as { data: Record<string, unknown> };

  beforeAll(async () => {
    await receiver.listen();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    logged.length = 0;
    receiver.received.length = 0;
    receiver.answerWith(() => ({ status: 204 }));
    await t.db.transaction(async (tx) => {
      await tx.delete(t.db.t.webhookDeliveries);
      await tx.delete(t.db.t.webhookEndpoints);
    });
  });
  afterAll(async () => {
    await receiver.close();
  });

  return {
    t,
    admin,
    user,
    receiver,
    logged,
    workers,
    worker,
    trpc,
    query,
    register,
    setStatut,
    deliveries,
    pass,
    endpointRow,
    rotate,
    payloadOf,
  };
}
