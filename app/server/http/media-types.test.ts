// The REST doors keep the API Platform contract for request bodies (decision 0015, "CSRF"): a POST or PUT in
// application/json or application/ld+json (what a Hydra client sends), a PATCH in
// application/merge-patch+json, each with or without a charset. The routes come from Fastify's own list,
// so a new REST write is covered without editing this file. tRPC stays application/json only, and a
// form, text/plain or a merge-patch POST is still refused (a cross-site page can send the first two).
import { beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { serverSuite } from '#tests/helpers/suite';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport } from '#tests/helpers/signalements';
import { BINARY_TYPE_MESSAGE } from './access';

const WRONG_TYPE = 'Les données doivent être envoyées en JSON.';
const ACCEPTED: Record<string, string[]> = {
  POST: [
    'application/json',
    'application/ld+json',
    'application/ld+json; charset=utf-8',
    'Application/JSON; charset=UTF-8',
  ],
  PUT: ['application/json', 'application/ld+json', 'application/ld+json; charset=utf-8'],
  PATCH: ['application/merge-patch+json', 'application/merge-patch+json; charset=utf-8', 'application/json'],
};
const REFUSED: Record<string, string[]> = {
  POST: ['text/plain', 'application/x-www-form-urlencoded', 'application/merge-patch+json'],
  PUT: ['text/plain', 'application/merge-patch+json'],
  PATCH: ['text/plain', 'application/ld+json'],
};

describe.each(await testEngines())('request body media types of the REST doors on %s', (engine) => {
  const { app: t, admin } = serverSuite(engine);
  let report: string;

  beforeAll(async () => {
    report = await createReport(t, admin.cookie);
  });

  const send = (method: string, url: string, type: string, body: unknown = {}) =>
    t.app.inject({
      method: method as 'POST',
      url,
      headers: { cookie: admin.cookie, ...SAME_ORIGIN, 'content-type': type },
      payload: JSON.stringify(body),
    });

  /** Every REST write of the route list, log-out last (it ends the session the others use). */
  const restWrites = () =>
    t.app.routeList
      .filter(
        (r) =>
          ['POST', 'PUT', 'PATCH'].includes(r.method) &&
          !r.config.procedures &&
          !r.config.clientFile &&
          !r.config.binaryBody,
      )
      .map((r) => ({ method: r.method, url: r.url.replace(/:[^/]+/g, report) }))
      .sort((a, b) => Number(a.url === '/api/logout') - Number(b.url === '/api/logout'));

  it('accepts each REST write in each type of the contract, and refuses the others with a French 415', async () => {
    const writes = restWrites();
    expect(writes.length).toBeGreaterThan(15);
    expect(writes.some((w) => w.method === 'PATCH')).toBe(true);
    const wrong: string[] = [];
    for (const { method, url } of writes) {
      for (const type of ACCEPTED[method]!) {
        const res = await send(method, url, type);
        if (res.statusCode === 415 || res.statusCode >= 500)
          wrong.push(`${method} ${url} ${type} → ${res.statusCode} ${res.body}`);
      }
      for (const type of REFUSED[method]!) {
        const res = await send(method, url, type);
        if (res.statusCode !== 415 || res.json().message !== WRONG_TYPE)
          wrong.push(`${method} ${url} ${type} → ${res.statusCode}, 415 attendu`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('takes an evidence file only as application/octet-stream, and refuses the others with a French 415', async () => {
    const binary = t.app.routeList.filter((r) => r.config.binaryBody).map((r) => `${r.method} ${r.url}`);
    expect(binary).toEqual(['POST /api/signalements/:code/pieces-jointes']);
    const url = `/api/signalements/${report}/pieces-jointes`;
    // The first test logged the suite's session out.
    const cookie = await t.login('admin@example.mg');
    const upload = (type: string) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { cookie, ...SAME_ORIGIN, 'content-type': type, 'x-nom-fichier': 'a.pdf' },
        payload: Buffer.from('%PDF-1.4\n'),
      });
    for (const type of ['application/octet-stream', 'Application/Octet-Stream; x=1'])
      expect((await upload(type)).statusCode, type).toBe(201);
    for (const type of [
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/pdf',
    ]) {
      const res = await upload(type);
      expect([res.statusCode, res.json().message], type).toEqual([415, BINARY_TYPE_MESSAGE]);
    }
  });

  it('creates a partner, a report and a person sent as application/ld+json, as a Hydra client does', async () => {
    const cookie = await t.login('admin@example.mg');
    const hydra = (url: string, body: unknown) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { cookie, ...SAME_ORIGIN, 'content-type': 'application/ld+json; charset=utf-8' },
        payload: JSON.stringify(body),
      });
    const partner = await hydra('/api/partenaires', {
      designation: 'Partenaire Hydra',
      email: 'hydra@partenaire.example.mg',
    });
    expect(partner.statusCode, partner.body).toBe(201);
    const created = await createReport(t, cookie);
    const source = await hydra('/api/sources', {
      signalement: `/api/signalements/${created}`,
      nomPrenom: 'Rakotobe Hydra',
      contact: '034 11 111 11',
    });
    expect(source.statusCode, source.body).toBe(201);
    expect(source.json()).toMatchObject({ nomPrenom: 'Rakotobe Hydra' });
  });

  it('keeps tRPC in application/json only', async () => {
    const cookie = await t.login('admin@example.mg');
    for (const type of ['application/ld+json', 'application/merge-patch+json']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/trpc/partenaires.create',
        headers: { cookie, ...SAME_ORIGIN, 'content-type': type },
        payload: JSON.stringify({
          designation: 'Partenaire tRPC LD',
          email: 'trpc-ld@partenaire.example.mg',
        }),
      });
      expect(res.statusCode, type).toBe(415);
    }
  });
});
