// Who may call what: every route and every procedure × four callers (the table: authorization-matrix.rules.ts),
// each cell a valid request (authorization-matrix.requests.ts). Success is compared by class, refusals
// exactly. A route or procedure missing from MATRIX, or an entry of MATRIX that no longer exists, fails
// the first test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN_SCOPES, type ApiTokenScope } from '#shared/constants';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { addPeople, SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { bearer, createToken } from '#tests/helpers/jetons-api';
import { createReport, MINIMAL_REPORT } from '#tests/helpers/signalements';
import { appRouter } from '../trpc/router';
import { matrixRequests, requestHelpers, type MatrixData } from './authorization-matrix.requests';
import {
  CALLERS,
  EMAIL,
  MATRIX,
  PARTNER_EMAIL,
  TARGET,
  type Call,
  type Caller,
} from './authorization-matrix.rules';

const proceduresOf = () => Object.keys(appRouter._def.procedures);

describe.each(await testEngines())('authorization matrix on %s', (engine) => {
  let t: TestApp;
  const cookies: Partial<Record<Caller, string>> = {};
  const data: MatrixData = {
    report: '',
    auteur: '',
    source: '',
    victime: '',
    partner: '',
    project: '',
    user: '',
  };
  /** The partner API token of the report's partner, every scope (« jeton partenaire »). */
  let token = '';
  let serial = 0;
  const unique = () => `${Date.now().toString(36)}${(serial++).toString(36)}`;

  beforeAll(async () => {
    // The token calls every door within a minute: its limit (server/domains/jetons-api/bearer.ts) is not
    // what this table tests.
    t = await createTestApp(engine, { API_TOKEN_REQUESTS_PER_MINUTE: '100000' });
    await t.user(EMAIL['other user'], 'ROLE_USER', 'Rakoto Autre');
    await t.user(EMAIL.creator, 'ROLE_USER', 'Rabe Createur');
    await t.user(EMAIL.admin, 'ROLE_ADMIN', 'Rasoa Admin');
    data.user = await t.user(TARGET.user, 'ROLE_USER', 'Randria Cible');
    await t.user(TARGET.login, 'ROLE_USER', 'Ravelo Connexion');
    await t.user(TARGET.link, 'ROLE_USER', 'Razafy Lien');
    for (const caller of ['other user', 'creator', 'admin'] as const)
      cookies[caller] = await t.login(EMAIL[caller]);
    // The creator's report belongs to a partner with an address: the creator may create its projects
    // and write to that address (docs/decisions/0015), and nobody else has a report with it.
    data.partner = await newPartner();
    data.report = await createReport(t, cookies.creator!, { partenaire: `/api/partenaires/${data.partner}` });
    Object.assign(data, await addPeople(t, cookies.creator!, data.report));
    data.project = (
      await send('admin', {
        method: 'POST',
        url: '/api/projects',
        body: { sigle: 'MATRICE', designation: 'Projet matrice', owner: `/api/partenaires/${data.partner}` },
      })
    ).json().code;
    token = (
      await createToken(t, cookies.admin!, { partenaire: data.partner, scopes: [...API_TOKEN_SCOPES] })
    ).secret;
    expect(Object.values(data).every(Boolean), JSON.stringify(data)).toBe(true);
  });
  afterAll(async () => t?.close());

  function send(caller: Caller, call: Call) {
    const cookie = call.cookie === undefined ? cookies[caller] : call.cookie;
    const method = call.method ?? 'GET';
    return t.app.inject({
      method,
      url: call.url,
      headers: {
        ...SAME_ORIGIN,
        ...(cookie ? { cookie } : {}),
        // A partner's system sends its token and, on every write, a fresh key (a create by token requires one).
        ...(caller === 'jeton partenaire' ? bearer(token, { 'idempotency-key': `matrice-${unique()}` }) : {}),
        ...(call.body === undefined
          ? {}
          : {
              'content-type':
                method === 'PATCH' && call.url.startsWith('/api/')
                  ? 'application/merge-patch+json'
                  : 'application/json',
            }),
        ...(call.file ? { 'content-type': 'application/octet-stream', ...call.file.headers } : {}),
      },
      ...(call.body === undefined ? {} : { payload: JSON.stringify(call.body) }),
      ...(call.file ? { payload: call.file.payload } : {}),
    });
  }

  async function newPartner(): Promise<string> {
    const res = await send('admin', {
      method: 'POST',
      url: '/api/partenaires',
      body: { designation: `Partenaire ${unique()}`, email: PARTNER_EMAIL },
    });
    if (res.statusCode !== 201) throw new Error(`partner: ${res.statusCode} ${res.body}`);
    return res.json().code;
  }
  const freshPeople = () => addPeople(t, cookies.creator!, data.report, ` ${unique()}`);
  async function freshNote(): Promise<string> {
    const res = await send('creator', {
      method: 'POST',
      url: `/api/signalements/${data.report}/notes`,
      body: { texte: `Note ${unique()}` },
    });
    if (res.statusCode !== 201) throw new Error(`note: ${res.statusCode} ${res.body}`);
    return res.json().code;
  }
  /** A fresh session of the caller (log-out ends it), or none for the anonymous caller. */
  const freshSession = async (caller: Caller) =>
    caller === 'anonymous' || caller === 'jeton partenaire' ? null : t.login(EMAIL[caller]);
  const fixture = {
    get t() {
      return t;
    },
    data,
    unique,
    newPartner,
    freshPeople,
    freshNote,
    freshSession,
  };
  const REQUESTS = matrixRequests(fixture);
  const helpers = requestHelpers(fixture);

  it('has one row for every registered route and procedure, and no row for a door that is gone', () => {
    const routes = t.app.routeList
      // The tRPC endpoint's methods are covered procedure by procedure; the built client's files
      // (one route per file of dist/web, GET only: server/http/doors.test.ts) have no data.
      .filter((r) => !r.config.procedures && !('file' in r.config))
      .map((r) => `${r.method} ${r.url}`);
    const doors = [...routes, ...proceduresOf()].sort();
    expect(Object.keys(MATRIX).sort()).toEqual(doors);
    expect(Object.keys(REQUESTS).sort()).toEqual(doors);
  });

  it.each(Object.keys(MATRIX))('%s', async (door) => {
    const expected = MATRIX[door]!;
    const actual: number[] = [];
    const bodies: string[] = [];
    for (const caller of CALLERS) {
      const res = await send(caller, await REQUESTS[door]!(caller));
      actual.push(res.statusCode);
      bodies.push(`${caller}: ${res.statusCode} ${res.body.slice(0, 160)}`);
    }
    // Any success for a success, the exact status for everything else.
    const comparable = actual.map((status, i) =>
      status >= 200 && status < 300 && expected[i]! >= 200 && expected[i]! < 300 ? expected[i]! : status,
    );
    expect(comparable, bodies.join('\n')).toEqual([...expected]);
  });

  // The token column above is a token of the report's partner with every scope; the other tokens a partner
  // could hold: another partner's, and one without the scope a door needs (docs/decisions/0038).
  it("refuses a token of another partner the report, and a token without the door's scope", async () => {
    const tokenOf = async (partenaire: string, scopes: ApiTokenScope[]) =>
      (await createToken(t, cookies.admin!, { partenaire, scopes, nom: `Jeton ${unique()}` })).secret;
    const call = (secret: string, method: 'GET' | 'POST', url: string) =>
      t.app.inject({
        method,
        url,
        headers: bearer(secret, { 'idempotency-key': `matrice-${unique()}` }),
        ...(method === 'POST'
          ? { payload: { ...MINIMAL_REPORT, partenaire: `/api/partenaires/${data.partner}` } }
          : {}),
      });
    const otherPartner = await newPartner();
    const other = await tokenOf(otherPartner, ['signalements:create', 'signalements:read']);
    expect((await call(other, 'GET', `/api/signalements/${data.report}`)).statusCode).toBe(404);
    const list = await call(other, 'GET', '/api/signalements');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(data.report);
    const filed = await call(other, 'POST', '/api/signalements');
    expect(filed.statusCode).toBe(201);
    expect(filed.json().partenaire.code).toBe(otherPartner);

    const readOnly = await tokenOf(data.partner, ['signalements:read']);
    const createOnly = await tokenOf(data.partner, ['signalements:create']);
    expect((await call(readOnly, 'POST', '/api/signalements')).statusCode).toBe(403);
    expect((await call(createOnly, 'GET', '/api/signalements')).statusCode).toBe(403);
    expect((await call(createOnly, 'GET', `/api/signalements/${data.report}`)).statusCode).toBe(403);
    expect((await call(readOnly, 'GET', '/api/webhooks')).statusCode).toBe(403);

    // Another partner's token with the webhooks scope finds none of this partner's endpoints (0051).
    const endpoint = await helpers.freshPartnerEndpoint();
    const otherHooks = await tokenOf(otherPartner, ['webhooks:manage']);
    const hooks = await call(otherHooks, 'GET', '/api/webhooks');
    expect(hooks.statusCode).toBe(200);
    expect(hooks.json().member).toEqual([]);
    expect((await call(otherHooks, 'GET', `/api/webhooks/${endpoint}`)).statusCode).toBe(404);
    expect((await call(otherHooks, 'POST', `/api/webhooks/${endpoint}/secret`)).statusCode).toBe(404);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/webhooks/${endpoint}`,
      headers: bearer(otherHooks),
    });
    expect(deleted.statusCode).toBe(404);
    expect(deleted.json().message).toBe('Point de réception introuvable.');
    expect((await call(token, 'GET', `/api/webhooks/${endpoint}`)).statusCode).toBe(200);
  });
});

// /metrics is the one door a setting opens, to a scraper's token and never to a session: the row above
// holds without METRICS_TOKEN; with it, the four staff and anonymous callers and a fifth, the scraper.
describe.each(await testEngines())(
  'authorization matrix of GET /metrics with METRICS_TOKEN on %s',
  (engine) => {
    const TOKEN = 'jeton-de-la-matrice-0123456789';
    let t: TestApp;
    const cookies: Partial<Record<Caller, string>> = {};
    beforeAll(async () => {
      t = await createTestApp(engine, { METRICS_TOKEN: TOKEN });
      await t.user(EMAIL['other user'], 'ROLE_USER', 'Rakoto Autre');
      await t.user(EMAIL.creator, 'ROLE_USER', 'Rabe Createur');
      await t.user(EMAIL.admin, 'ROLE_ADMIN', 'Rasoa Admin');
      for (const caller of ['other user', 'creator', 'admin'] as const)
        cookies[caller] = await t.login(EMAIL[caller]);
    });
    afterAll(async () => t?.close());

    it('refuses every session (401) and answers the token alone (200)', async () => {
      const statuses = [];
      for (const caller of CALLERS.filter((c) => c !== 'jeton partenaire')) {
        const cookie = cookies[caller];
        statuses.push(
          (await t.app.inject({ url: '/metrics', headers: cookie ? { cookie } : {} })).statusCode,
        );
      }
      expect(statuses).toEqual([401, 401, 401, 401]);
      expect(
        (await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode,
      ).toBe(200);
      expect(
        (await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN.slice(0, -1)}` } }))
          .statusCode,
      ).toBe(401);
    });
  },
);
