// Every door, anonymously, under hostile spellings (decision 0015: `curl --path-as-is /%61pi/…/source` read
// sources' names without a session because a hook tested the raw URL's prefix). The routes come from
// Fastify's own list and the procedures from the router, so a new door is covered without editing this
// file; a new *public* door fails it until it is added to the lists below on purpose.
//
// Requests go over a real socket with the path exactly as written (tests/helpers/raw-http.ts):
// `app.inject` would resolve `/./`, `/../` and `%2E` segments before the router saw them. The app, its
// records and the probe that sends the requests are in doors.harness.ts; the rules are here.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { bearer } from '#tests/helpers/jetons-api';
import { PEOPLE, SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { appRouter } from '../trpc/router';
import {
  openDoors,
  UNDECLARED,
  UNDECLARED_ANSWER,
  type Doors,
  type RawClient,
  type TestApp,
} from './doors.harness';
import { enc, join, spellingsOf } from './path-spellings';

/** The only routes reachable without a session. Adding one here is a security decision. */
const PUBLIC_ROUTES = [
  'POST /api/login',
  'GET /api/health',
  // The password set-up page, opened from an e-mail by someone who has no session yet.
  'GET /api/definir-mot-de-passe/:token',
  'POST /api/definir-mot-de-passe/:token',
  // The public summary of a report (spec §2), without personal data.
  'GET /api/resume/signalements-details/:code',
  // The API's own documents: its shape, never its data (docs/decisions/0037-api-documents.md).
  'GET /api',
  'GET /api/docs.jsonld',
  'GET /api/contexts/:resource',
  'GET /api/docs.json',
  'GET /api/docs',
  // Prometheus metrics: no session, but METRICS_TOKEN (404 without the setting, 401 without the token).
  'GET /metrics',
];
/** The only procedures reachable without a session. */
const PUBLIC_PROCEDURES = [
  'auth.login',
  // The session's user or null: an anonymous caller learns only that it has no session.
  'auth.session',
  // This session's offline-store key or null, as auth.session (docs/decisions/0048-offline-store.md).
  'auth.offlineKey',
  'passwordTokens.inspect',
  'passwordTokens.define',
  'signalements.resume',
];

const AUTH_REQUIRED = 'Authentification requise.';
const FORBIDDEN_KEY = 'Nom de paramètre non autorisé.';

type Procedure = { _def: { type: 'query' | 'mutation' | 'subscription'; meta?: { public?: boolean } } };
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, Procedure>).map(
  ([path, p]) => ({
    path,
    type: p._def.type,
    isPublic: Boolean(p._def.meta?.public),
  }),
);

// ---------------------------------------------------------------- the suite

describe.each(await testEngines())('every door under hostile spellings on %s', (engine) => {
  let doors: Doors;
  let t: TestApp;
  let client: RawClient;
  let userCookie: string;
  let creatorCookie: string;
  let adminCookie: string;
  let partnerToken: string;
  let data: Doors['data'];
  let concreteSegments: Doors['concreteSegments'];
  let bodyFor: Doors['bodyFor'];
  let probe: Doors['probe'];

  beforeAll(async () => {
    doors = await openDoors(engine);
    ({
      t,
      client,
      userCookie,
      creatorCookie,
      adminCookie,
      partnerToken,
      data,
      concreteSegments,
      bodyFor,
      probe,
    } = doors);
  });
  afterAll(async () => doors?.close());

  it('has exactly the expected public routes, one tRPC endpoint and client files only under /admin', () => {
    const routes = t.app.routeList;
    expect(routes.length).toBeGreaterThan(50);
    const publicRoutes = routes.filter((r) => r.config.public).map((r) => `${r.method} ${r.url}`);
    expect(publicRoutes.sort()).toEqual([...PUBLIC_ROUTES].sort());
    const trpc = routes.filter((r) => r.config.procedures);
    expect(new Set(trpc.map((r) => r.url))).toEqual(new Set(['/trpc/:path']));
    expect(trpc.some((r) => r.config.public)).toBe(false);
    // The client's files and its two redirects: GET only, never under /api or /trpc.
    for (const r of routes.filter((route) => route.config.clientFile)) {
      expect(r.method, r.url).toBe('GET');
      const redirect = r.url === '/' || r.url === '/admin';
      // Anything else must be a file that @fastify/static serves from the built client.
      expect(
        redirect || (r.url.startsWith('/admin/') && 'file' in r.config && 'rootPath' in r.config),
        r.url,
      ).toBe(true);
    }
  });

  it('has exactly the expected public procedures, and every other one needs a session', () => {
    expect(procedures.length).toBeGreaterThan(50);
    expect(
      procedures
        .filter((p) => p.isPublic)
        .map((p) => p.path)
        .sort(),
    ).toEqual([...PUBLIC_PROCEDURES].sort());
  });

  it('sends every path byte for byte, as curl --path-as-is would', async () => {
    const paths = ['/api/./x', '/api/%2E/x', '/api/x/../y', '/api\\x', '//api//x/', `/api/x;y=1`];
    const start = client.received.length;
    for (const path of paths) await client.send('GET', path);
    expect(client.received.slice(start)).toEqual(paths);
  });

  it('answers 401 to every private route under every spelling that reaches it, and never 2xx or 5xx under the others', async () => {
    const requests = t.app.routeList
      .filter((r) => !r.config.public && !r.config.procedures && !r.config.clientFile)
      .flatMap((route) =>
        spellingsOf(concreteSegments(route.url)).map((s) => ({
          method: route.method,
          path: s.path,
          label: `${s.label}${s.same ? ' (same route)' : ''}`,
          route: `${route.method} ${route.url}`,
          same: s.same,
          ...bodyFor(route.method, route.config.binaryBody),
        })),
      );
    expect(requests.length).toBeGreaterThan(1000);
    const received = client.received.length;
    const failures = await probe(requests, (res, request) => {
      const same = request.label.endsWith('(same route)');
      if (same) return res.status === 401 && JSON.parse(res.body).message === AUTH_REQUIRED;
      return [400, 401, 404, 405].includes(res.status);
    });
    expect(failures).toEqual([]);
    // Nothing between this client and the router rewrote a path.
    expect(client.received.slice(received).sort()).toEqual(requests.map((r) => r.path).sort());
  });

  it('lets a session through the same spellings, so the 401s above are the gate and not a missed route', async () => {
    const requests = t.app.routeList
      // The xlsx export starts a worker thread (seconds); its JSON twin stands for it.
      .filter(
        (r) =>
          r.method === 'GET' &&
          !r.config.public &&
          !r.config.procedures &&
          !r.config.clientFile &&
          !r.url.endsWith('/xlsx'),
      )
      .map((r) => ({
        path: `/${enc(r.url[1]!)}${join(concreteSegments(r.url)).slice(2)}`,
        // A partner's own doors answer its token, never a session (docs/decisions/0051).
        credentials: r.config.tokenOnly ? bearer(partnerToken) : { ...SAME_ORIGIN, cookie: adminCookie },
      }));
    expect(requests.length).toBeGreaterThan(30);
    expect(requests.map((r) => r.path)).toContain(`/%61pi/signalements/${data.report}/source`);
    expect(requests.map((r) => r.path)).toContain(`/%61pi/webhooks/${data.webhook}`);
    for (const { path, credentials } of requests) {
      const res = await client.send('GET', path, credentials);
      expect(res.status, path).toBe(200);
    }
    const source = await client.send('GET', `/%61pi/signalements/${data.report}/source`, {
      cookie: userCookie,
    });
    expect(source.body).toContain(PEOPLE.source);
  });

  it('answers 401 to HEAD on every private GET route', async () => {
    const requests = t.app.routeList
      .filter((r) => r.method === 'GET' && !r.config.public && !r.config.procedures && !r.config.clientFile)
      .map((r) => ({ method: 'HEAD', path: join(concreteSegments(r.url)), label: 'HEAD' }));
    expect(await probe(requests, (res) => res.status === 401)).toEqual([]);
  });

  it('answers 401 to every private procedure under every spelling that reaches it', async () => {
    const requests = procedures
      .filter((p) => !p.isPublic)
      .flatMap((p) =>
        spellingsOf(['trpc', p.path]).map((s) => ({
          method: p.type === 'query' ? 'GET' : 'POST',
          path: p.type === 'query' ? `${s.path}?input=%7B%7D` : s.path,
          label: `${s.label}${s.same ? ' (same route)' : ''}`,
          ...(p.type === 'query' ? { headers: {}, body: undefined } : bodyFor('POST')),
        })),
      );
    const failures = await probe(requests, (res, request) => {
      if (request.label.endsWith('(same route)')) {
        return res.status === 401 && JSON.parse(res.body).error?.data?.code === 'UNAUTHORIZED';
      }
      return [400, 401, 404, 405].includes(res.status);
    });
    expect(failures).toEqual([]);
  });

  it('answers 401 to batches of private procedures, and refuses the private half of a batch with a public one', async () => {
    const privateOnes = procedures.filter((p) => !p.isPublic && p.type !== 'subscription');
    const batchInput = (inputs: object[]) =>
      JSON.stringify(Object.fromEntries(inputs.map((input, i) => [i, input])));
    const requests = privateOnes.flatMap((p) => {
      const query = p.type === 'query';
      const pair = (names: string, inputs: object[], label: string) =>
        query
          ? {
              method: 'GET',
              path: `/trpc/${names}?batch=1&input=${encodeURIComponent(batchInput(inputs))}`,
              label,
            }
          : {
              method: 'POST',
              path: `/trpc/${names}?batch=1`,
              label,
              headers: { 'content-type': 'application/json' },
              body: batchInput(inputs),
            };
      const publicOne = query ? 'signalements.resume' : 'passwordTokens.define';
      const publicInput = query
        ? { code: data.report }
        : { token: 'lien-invalide', password: 'un-mot-de-passe-long-1!' };
      return [
        pair(`${p.path},${p.path}`, [{}, {}], 'private batch'),
        pair(`${p.path}%2C${p.path}`, [{}, {}], 'private batch, encoded comma'),
        pair(`${p.path.replaceAll('.', '%2E')},${p.path}`, [{}, {}], 'private batch, encoded dots'),
        pair(`${publicOne},${p.path}`, [publicInput, {}], 'mixed batch'),
        pair(`${p.path},${publicOne}`, [{}, publicInput], 'mixed batch'),
      ];
    });
    const failures = await probe(requests, (res, request) => {
      const answers = JSON.parse(res.body) as Array<{
        result?: unknown;
        error?: { data?: { code?: string } };
      }>;
      if (!Array.isArray(answers) || answers.length !== 2) return false;
      const names = decodeURIComponent(request.path.slice('/trpc/'.length).split('?')[0]!).split(',');
      return (
        names.every((name, i) => {
          if (PUBLIC_PROCEDURES.includes(name)) return true;
          return answers[i]!.result === undefined && answers[i]!.error?.data?.code === 'UNAUTHORIZED';
        }) &&
        (request.label === 'mixed batch' || res.status === 401)
      );
    });
    expect(failures).toEqual([]);
  });

  // TRACE is checked on its own below: it answers 500 today.
  it('refuses the other methods of the tRPC endpoint without running a private procedure', async () => {
    const methods = t.app.routeList.filter((r) => r.config.procedures).map((r) => r.method);
    expect(methods).toEqual(expect.arrayContaining(['GET', 'POST']));
    const requests = methods
      .filter((m) => !['GET', 'POST', 'TRACE'].includes(m))
      .flatMap((method) =>
        ['auth.whoAmI', 'signalements.list', 'sources.list'].map((name) => ({
          method,
          path: `/trpc/${name}`,
          label: method,
        })),
      );
    expect(requests.length).toBeGreaterThan(0);
    expect(await probe(requests, (res) => [400, 401, 404, 405, 415].includes(res.status))).toEqual([]);
  });

  // The tRPC adapter's catch-all route handed TRACE to a fetch Request that refuses it (500): the route
  // now answers GET and POST only (server/app.ts).
  it('refuses TRACE on the tRPC endpoint without a 5xx', async () => {
    const requests = ['auth.whoAmI', 'signalements.list', 'signalements.resume'].map((name) => ({
      method: 'TRACE',
      path: `/trpc/${name}`,
      label: 'TRACE',
    }));
    expect(await probe(requests, (res) => [400, 401, 404, 405].includes(res.status))).toEqual([]);
  });

  it('keeps a route added without any declaration private: 401 anonymously, 200 with a session', async () => {
    const declared = t.app.routeList.filter((r) => UNDECLARED.includes(r.url));
    expect(declared.map((r) => `${r.method} ${r.url}`).sort()).toEqual(
      [...UNDECLARED.map((u) => `GET ${u}`), `POST ${UNDECLARED[0]}`].sort(),
    );
    for (const route of declared) {
      const { headers, body } = bodyFor(route.method);
      const anonymous = await client.send(route.method, route.url, { ...SAME_ORIGIN, ...headers }, body);
      expect(anonymous.status, route.url).toBe(401);
      expect(JSON.parse(anonymous.body).message).toBe(AUTH_REQUIRED);
      // The same call with a session reaches the handler: the 401 above is the gate, not a missing route.
      const withSession = await client.send(
        route.method,
        route.url,
        { ...SAME_ORIGIN, ...headers, cookie: userCookie },
        body,
      );
      expect(withSession.status, route.url).toBe(200);
      expect(JSON.parse(withSession.body)).toEqual(UNDECLARED_ANSWER);
    }
  });

  it('answers 404 to unknown paths without touching the database', async () => {
    const db = t.db as unknown as Record<string, unknown>;
    const read = t.db.read as unknown as Record<string, unknown>;
    const names = (target: Record<string, unknown>, list: string[]) =>
      list.filter((name) => typeof target[name] === 'function');
    const spies = [
      ...names(db, ['transaction', 'rows', 'prepared', 'execute', 'ping']).map((name) =>
        vi.spyOn(db as Record<string, () => unknown>, name),
      ),
      ...names(read, [
        'select',
        'selectDistinct',
        'selectDistinctOn',
        'insert',
        'update',
        'delete',
        'execute',
        'run',
        'all',
        'get',
        'values',
        'transaction',
        '$count',
      ]).map((name) => vi.spyOn(read as Record<string, () => unknown>, name)),
    ];
    const calls = () => spies.reduce((n, spy) => n + spy.mock.calls.length, 0);
    try {
      // The spies see the work a known route does with a session (so a zero below means something).
      await client.send('GET', '/api/utilisateur/who-am-i', { cookie: userCookie });
      expect(calls()).toBeGreaterThan(0);
      spies.forEach((spy) => spy.mockClear());

      const unknown = [
        { method: 'GET', path: '/api/nope' },
        { method: 'POST', path: '/api/nope', headers: { 'content-type': 'application/json' }, body: '{}' },
        { method: 'GET', path: '/api/signalements/x/y/z' },
        { method: 'GET', path: '/%61pi/nope' },
        { method: 'GET', path: '/trpc/nope.nope?input=%7B%7D' },
        {
          method: 'POST',
          path: '/trpc/nope.nope',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        },
        { method: 'GET', path: '/trpc/nope.nope,auth.nope?batch=1&input=%7B%7D' },
      ];
      for (const request of unknown) {
        const res = await client.send(
          request.method,
          request.path,
          { ...SAME_ORIGIN, ...request.headers },
          request.body,
        );
        expect(res.status, request.path).toBe(404);
      }
      // A session cookie on an unknown path: no route, so no session look-up either.
      expect((await client.send('GET', '/api/nope', { cookie: userCookie })).status).toBe(404);
      expect(calls()).toBe(0);
    } finally {
      spies.forEach((spy) => spy.mockRestore());
    }
  });

  it('refuses query keys aimed at Object.prototype before any work, and pollutes nothing', async () => {
    const hostile = [
      '__proto__[search]=x',
      'constructor[prototype][x]=1',
      'order[__proto__]=x',
      '__proto__[public]=1',
      '%5F%5Fproto%5F%5F[search]=x',
      '__proto__.search=x',
      'filters[constructor][prototype][public]=1',
      'prototype=1',
      'page=1&__proto__=x',
    ];
    for (const query of hostile) {
      const res = await client.send('GET', `/api/signalements?${query}`, { cookie: userCookie });
      expect(res.status, query).toBe(400);
      expect(JSON.parse(res.body).message, query).toBe(FORBIDDEN_KEY);
      // Same refusal before the session gate, and through the tRPC door's query string.
      expect((await client.send('GET', `/api/signalements?${query}`)).status, query).toBe(400);
      expect(
        (await client.send('GET', `/trpc/signalements.list?${query}`, { cookie: userCookie })).status,
        query,
      ).toBe(400);
    }
    const probeObject = {} as Record<string, unknown>;
    for (const key of ['search', 'public', 'x']) expect(probeObject[key], key).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toEqual(expect.arrayContaining(['search']));
    // Another user's ordinary list still works and still needs its session.
    const list = await client.send('GET', '/api/signalements?page=1', { cookie: creatorCookie });
    expect(list.status).toBe(200);
    const body = JSON.parse(list.body) as { totalItems: number; member: Array<{ code: string }> };
    expect(body.totalItems).toBeGreaterThan(0);
    expect(body.member.map((m) => m.code)).toContain(data.report);
    expect((await client.send('GET', '/api/signalements?page=1')).status).toBe(401);
  });
});
