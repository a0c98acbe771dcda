// The answers no route writes (decision 0015): Node's HTTP parser refusing a request (a malformed request
// line or header: 400; headers over the size limit: 431) and Fastify's router refusing a path (a bad
// escape: 400; a parameter over maxParamLength: 414). Each carries the security headers of every other
// answer and a French body, never the English default. Sent over a real socket, byte for byte: no HTTP
// client can send a malformed request line, and app.inject never reaches Node's parser.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { rawExchange, type RawResponse } from '#tests/helpers/raw-http';
import { MESSAGES } from '../errors';
import { contentSecurityPolicy } from './security-headers';

const METRICS_TOKEN = 'jeton-de-metriques-assez-long';

describe.each(await testEngines())('framework errors on %s', (engine) => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp(engine, { METRICS_TOKEN });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => t?.close());

  const send = (bytes: string) => rawExchange(port, bytes);
  const get = (path: string, headers = '') =>
    send(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n${headers}Connection: close\r\n\r\n`);

  function expectFrenchAndProtected(res: RawResponse, status: number, message: string) {
    expect(res.status, res.body).toBe(status);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(res.body)).toEqual({ status, message });
    expect(res.headers['content-security-policy']).toBe(contentSecurityPolicy(t.config));
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.headers['cache-control']).toBe('no-store');
  }

  it('answers a malformed request line or header from Node’s parser with a protected French 400', async () => {
    for (const bytes of [
      'PAS UNE REQUETE\r\n\r\n',
      'GET /api/health HTTP/1.1\r\nHost: localhost\r\nEn tête invalide: x\r\n\r\n',
      'GET /api/health HTTP/9.9\r\nHost: localhost\r\n\r\n',
    ]) {
      expectFrenchAndProtected(await send(bytes), 400, MESSAGES.invalidRequest);
    }
  });

  it('answers headers over the size limit with a protected French 431', async () => {
    const res = await get('/api/health', `X-Enorme: ${'a'.repeat(70_000)}\r\n`);
    expectFrenchAndProtected(res, 431, 'En-têtes de la requête trop volumineux.');
  });

  it('answers a path parameter over the length limit with a protected French 414', async () => {
    expectFrenchAndProtected(
      await get(`/trpc/${'a'.repeat(6000)}`),
      414,
      'Adresse de la requête trop longue.',
    );
    expectFrenchAndProtected(
      await get(`/api/partenaires/${'a'.repeat(6000)}`),
      414,
      'Adresse de la requête trop longue.',
    );
  });

  it('answers a path the router cannot decode, and a broken JSON body, with a protected French 400', async () => {
    for (const path of ['/api/partenaires/%zz', '/api/partenaires/%E0%A4%A']) {
      expectFrenchAndProtected(await get(path), 400, MESSAGES.invalidRequest);
    }
    const body = '{"email":';
    const res = await send(
      `POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).message).toMatch(/^[^a-z]*[A-ZÀ-Ý][^]*\.$/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('forbids caching unknown /api paths and /metrics', async () => {
    expectFrenchAndProtected(await get('/api/nexiste-pas'), 404, MESSAGES.notFound);
    expectFrenchAndProtected(await get('/api/'), 404, MESSAGES.notFound);
    const metrics = await get('/metrics', `Authorization: Bearer ${METRICS_TOKEN}\r\n`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers['cache-control']).toBe('no-store');
    expectFrenchAndProtected(await get('/metrics'), 401, MESSAGES.unauthenticated);
  });
});
