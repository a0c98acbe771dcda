// The partner's journey end to end, on both engines: with only a token and the OpenAPI document, a
// partner's system registers its webhook endpoint, files a report idempotently, then hears through a signed webhook that staff changed its
// statut, and reads the new statut back with the same token. The body is built from the document's
// request schema, and the receiver checks the Standard Webhooks signature with its own implementation.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { bearer, createToken } from '#tests/helpers/jetons-api';
import { mergePatch } from '#tests/helpers/signalements';
import { serverSuite } from '#tests/helpers/suite';
import { systemClock } from '#server/context';
import { DEFAULT_WEBHOOK_POLICY, deliverDueWebhooks } from '#server/domains/webhooks/delivery';
import { documentAjv } from '#tests/helpers/answer-validation';

interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** The partner's receiver on 127.0.0.1: records every request and answers 204. */
async function startReceiver() {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(204);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    received,
    url: `http://127.0.0.1:${port}/partenaire/webhooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The partner's own check, from the Standard Webhooks specification: HMAC-SHA256 keyed with the base64 after
 * `whsec_`, over `id.timestamp.body`; a recent timestamp; any `v1,` entry of the header may match.
 */
function verifySignature(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const id = String(headers['webhook-id'] ?? '');
  const timestamp = String(headers['webhook-timestamp'] ?? '');
  if (id === '' || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((entry) => {
      const [version, signature] = entry.split(',');
      const given = Buffer.from(signature ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

type Schema = {
  type?: string;
  required?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
};
interface Parameter {
  name: string;
  in: string;
}
interface Operation {
  security: Record<string, string[]>[];
  parameters: Parameter[];
  requestBody: { content: Record<string, { schema: Schema }> };
}
interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
}

/**
 * What the partner knows besides the document: the seeded referentiel codes it was given (the token reads
 * no referentiel) and a date. Each IRI points into a collection the document lists.
 */
const KNOWN_VALUES: Record<string, string> = {
  partenaire: '/api/partenaires/IVY',
  subjects: '/api/subjects/CORRUPTION',
  canalPrincipal: '/api/canals/TELEPHONE',
  signalementAt: '2025-03-10',
};

/** A body holding exactly the schema's required fields, each shaped as the schema types it. */
function bodyFromSchema(schema: Schema): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const name of schema.required ?? []) {
    const value = KNOWN_VALUES[name];
    if (value === undefined) throw new Error(`champ requis sans valeur connue : ${name}`);
    body[name] = schema.properties?.[name]?.type === 'array' ? [value] : value;
  }
  return body;
}

describe.each(await testEngines())("a partner's journey on %s", (engine) => {
  // The partner's receiver listens on loopback: the test network allows it (the default asks a public address).
  const { app: t, admin } = serverSuite(engine, { env: { WEBHOOK_PARTNER_ADDRESSES: 'any' } });
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const log = { info: () => {}, warn: () => {}, error: () => {} };
  /** The worker's own pass over the outbox: delivers what is due now, returns how many it claimed. */
  const deliverDue = () =>
    deliverDueWebhooks(
      t.db,
      { ...DEFAULT_WEBHOOK_POLICY, partnerAddresses: 'any' },
      {
        signal: new AbortController().signal,
        log,
        clock: systemClock,
        cipher: t.ctx.cipher!,
        shouldStop: () => false,
      },
    );

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('files a report with only a token and the OpenAPI document, and hears of its new statut signed', async () => {
    // 1. An administrator gives partner IVY a token; that is all the partner gets from the unit.
    const token = (
      await createToken(t, admin.cookie, {
        partenaire: 'IVY',
        scopes: ['signalements:create', 'signalements:read', 'webhooks:manage'],
      })
    ).secret;

    // 2. The partner reads the document, without any cookie.
    const docAnswer = await t.app.inject({ url: '/api/docs.json' });
    expect(docAnswer.statusCode).toBe(200);
    const doc = docAnswer.json() as OpenApi;
    const create = doc.paths['/api/signalements']?.post;
    expect(create, 'POST /api/signalements documenté').toBeDefined();
    const scheme = Object.keys(doc.components.securitySchemes).find((name) =>
      create!.security.some((requirement) => requirement[name]?.includes('signalements:create')),
    );
    expect(scheme).toBe('jetonPartenaire');
    expect(doc.components.securitySchemes[scheme!]).toMatchObject({ type: 'http', scheme: 'bearer' });
    const idempotency = create!.parameters.find(
      (p) => p.in === 'header' && /^idempotency-key$/i.test(p.name),
    );
    expect(idempotency).toBeDefined();
    const schema = create!.requestBody.content['application/json']?.schema;
    expect(schema?.required?.length).toBeGreaterThan(0);
    const body = bodyFromSchema(schema!);
    expect(Object.keys(body).sort()).toEqual([...schema!.required!].sort());
    // The body is valid for the document, and every IRI in it points into a collection it documents.
    const validate = documentAjv().compile(schema!);
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    for (const value of Object.values(body).flat()) {
      const iri = String(value);
      if (iri.startsWith('/api/'))
        expect(doc.paths, iri).toHaveProperty([iri.slice(0, iri.lastIndexOf('/'))]);
    }
    const readScheme = doc.paths['/api/signalements/{code}']?.get?.security;
    expect(readScheme).toContainEqual({ [scheme!]: ['signalements:read'] });

    // The partner registers its own endpoint, as the document says (docs/decisions/0051).
    const register = doc.paths['/api/webhooks']?.post;
    expect(register?.security).toEqual([{ [scheme!]: ['webhooks:manage'] }]);
    const endpointBody = { url: receiver.url };
    const endpointSchema = register!.requestBody.content['application/json']?.schema;
    const validateEndpoint = documentAjv().compile(endpointSchema!);
    expect(validateEndpoint(endpointBody), JSON.stringify(validateEndpoint.errors)).toBe(true);
    const endpoint = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: bearer(token),
      payload: endpointBody,
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const webhookSecret = (endpoint.json() as { secret: string }).secret;

    // The same request sent twice with the same key files one report.
    const headers = bearer(token, { [idempotency!.name]: `partenaire-ivy-${engine}-001` });
    const send = () => t.app.inject({ method: 'POST', url: '/api/signalements', headers, payload: body });
    const countReports = async () => (await t.db.read.select().from(t.db.t.signalements)).length;
    const before = await countReports();
    const first = await send();
    expect(first.statusCode, first.body).toBe(201);
    const code = (first.json() as { code: string }).code;
    expect(code).toMatch(/\S/);
    const again = await send();
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((again.json() as { code: string }).code).toBe(code);
    expect(await countReports()).toBe(before + 1);
    // Filing the report is no status change: nothing is sent.
    expect(await deliverDue()).toBe(0);
    expect(receiver.received).toHaveLength(0);

    // 3. Staff change the report's statut.
    const patch = await mergePatch(t, admin.cookie, `/api/signalements/${code}`, {
      statut: '/api/statuts/EN_COURS',
    });
    expect(patch.statusCode, patch.body).toBe(200);

    // 4. One signed POST names the report and its new statut, and no person.
    expect(await deliverDue()).toBe(1);
    expect(await deliverDue()).toBe(0);
    expect(receiver.received).toHaveLength(1);
    const [hook] = receiver.received;
    expect(hook!.method).toBe('POST');
    expect(hook!.path).toBe('/partenaire/webhooks');
    expect(verifySignature(webhookSecret, hook!.headers, hook!.body)).toBe(true);
    // The check is real: one changed byte fails it.
    expect(verifySignature(webhookSecret, hook!.headers, hook!.body.replace(code, `${code}X`))).toBe(false);
    const event = JSON.parse(hook!.body) as {
      type: string;
      data: { signalement: string; changements: { statut?: { apres: string } } };
    };
    expect(event.type).toBe('signalement.modifie');
    expect(event.data.signalement).toBe(code);
    expect(event.data.changements.statut?.apres).toBe('EN_COURS');
    for (const person of [admin.nomPrenom, admin.email, 'Jeton API', 'Guichet des plaintes'])
      expect(hook!.body).not.toContain(person);
    expect(hook!.body).not.toMatch(/nomPrenom|email|createdBy|updatedBy|utilisateur|auteur|victime/i);

    const read = await t.app.inject({ url: `/api/signalements/${code}`, headers: bearer(token) });
    expect(read.statusCode, read.body).toBe(200);
    expect((read.json() as { statut: { code: string } }).statut.code).toBe('EN_COURS');
  });
});
