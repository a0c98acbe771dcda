import { beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { serverSuite } from '#tests/helpers/suite';

const PUBLIC_API = [
  'POST /api/login',
  'GET /api/health',
  // The password set-up page, opened from an e-mail by someone who has no session yet.
  'GET /api/definir-mot-de-passe/:token',
  'POST /api/definir-mot-de-passe/:token',
  // The API's own documents: its shape, never its data (docs/decisions/0037-api-documents.md).
  'GET /api',
  'GET /api/docs.jsonld',
  'GET /api/contexts/:resource',
  'GET /api/docs.json',
  'GET /api/docs',
];
const PUBLIC_TRPC = [
  'auth.login',
  // The session's user, or null without one.
  'auth.session',
  // The session's offline-store key, or null without one (docs/decisions/0048-offline-store.md).
  'auth.offlineKey',
  'passwordTokens.inspect',
  'passwordTokens.define',
  // The public summary of a report (§2), like /api/resume/ above.
  'signalements.resume',
];

describe.each(await testEngines())('server-side guards on %s', (engine) => {
  const { app: t, admin, user } = serverSuite(engine);
  beforeAll(async () => {
    await t.user('analyste@example.mg', 'ROLE_ANALYSTE');
  });

  const concrete = (url: string) => url.replace(/:[a-zA-Z]+/g, 'SIG-0000-0000');

  it('answers 401 to an anonymous caller on every /api route but the public ones', async () => {
    const apiRoutes = t.app.routeList.filter((r) => r.url.startsWith('/api/'));
    expect(apiRoutes.length).toBeGreaterThan(3);
    for (const route of apiRoutes) {
      const key = `${route.method} ${route.url}`;
      const isPublic = PUBLIC_API.includes(key) || route.url.startsWith('/api/resume/');
      expect(Boolean(route.config.public), key).toBe(isPublic);
      if (isPublic) continue;
      const res = await t.app.inject({
        method: route.method as 'GET',
        url: concrete(route.url),
        // The body type the door takes (an evidence file's upload: its bytes), so that the answer is the
        // session check's, not the body type's 415.
        payload: route.config.binaryBody ? '%PDF-1.4\n' : {},
        // As the application's pages send it: the CSRF check would otherwise answer first (403).
        headers: {
          'sec-fetch-site': 'same-origin',
          ...(route.config.binaryBody ? { 'content-type': 'application/octet-stream' } : {}),
        },
      });
      expect(res.statusCode, key).toBe(401);
      expect(res.json().message, key).toBe('Authentification requise.');
    }
  });

  it('answers 401 to an anonymous caller on every tRPC procedure but login and the password set-up', async () => {
    const { appRouter } = await import('../trpc/router');
    const procedures = Object.entries(appRouter._def.procedures) as unknown as Array<
      [string, { _def: { type: string } }]
    >;
    expect(procedures.length).toBeGreaterThan(3);
    for (const [path, proc] of procedures) {
      if (PUBLIC_TRPC.includes(path)) continue;
      const res =
        proc._def.type === 'query'
          ? await t.app.inject({ url: `/trpc/${path}` })
          : await t.app.inject({ method: 'POST', url: `/trpc/${path}`, payload: {} });
      expect(res.statusCode, path).toBe(401);
    }
  });

  it('gives an admin route 403 for a non-admin and 200 for an admin', async () => {
    for (const cookie of [user.cookie, await t.login('analyste@example.mg')]) {
      const rest = await t.app.inject({ url: '/api/utilisateurs', headers: { cookie } });
      expect(rest.statusCode).toBe(403);
      expect(rest.json().message).toBe("Vous n'avez pas les droits nécessaires pour cette action.");
      const trpc = await t.app.inject({ url: '/trpc/utilisateurs.list?input=%7B%7D', headers: { cookie } });
      expect(trpc.statusCode).toBe(403);
    }
    const ok = await t.app.inject({
      url: '/api/utilisateurs?page=1&itemsPerPage=2',
      headers: { cookie: admin.cookie },
    });
    expect(ok.statusCode).toBe(200);
    const body = ok.json();
    expect(body).toMatchObject({ '@type': 'Collection', totalItems: 3 });
    expect(body.member).toHaveLength(2);
    expect(body.member[0].nomPrenom <= body.member[1].nomPrenom).toBe(true);
    expect(body.view).toMatchObject({
      first: '/api/utilisateurs?page=1&itemsPerPage=2',
      next: '/api/utilisateurs?page=2&itemsPerPage=2',
    });
  });

  it('reports its health as up or down only, without the metrics token (details: server/http/health.test.ts)', async () => {
    const res = await t.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('lists the roles to any logged-in user', async () => {
    const res = await t.app.inject({ url: '/api/utilisateur_roles', headers: { cookie: user.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json().member.map((r: { code: string }) => r.code)).toEqual(
      expect.arrayContaining([
        'ROLE_ADMIN',
        'ROLE_USER',
        'ROLE_GESTIONNAIRE',
        'ROLE_ENQUETEUR',
        'ROLE_ANALYSTE',
        'ROLE_ASSISTANT',
      ]),
    );
  });
});
