// A partner's own webhook endpoints through its API token (docs/decisions/0051-partner-webhook-endpoints.md),
// on both engines: registered, listed, renewed and deleted at /api/webhooks with the scope `webhooks:manage`;
// only public HTTPS addresses by default, judged again when the worker connects (a name resolving to a
// private address is never called); at most five per partner. The loopback receiver of the other webhook
// tests is reached under WEBHOOK_PARTNER_ADDRESSES=any, signed, like an administrator's endpoint.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { LookupAddress } from 'node:dns';
import { testEngines } from '#tests/helpers/db';
import { bearer, createToken } from '#tests/helpers/jetons-api';
import { createReport } from '#tests/helpers/signalements';
import { systemClock } from '#server/context';
import { ADDRESS_MESSAGES } from './addresses';
import { PARTNER_WEBHOOK_MAX_ENDPOINTS, PARTNER_WEBHOOK_MESSAGES } from './partner-endpoints';
import { insertEndpoint } from './service';
import { verifyStandardWebhook, webhookSuite } from './webhooks.harness';

const PARTNER_URL = 'https://recepteur.partenaire.example/webhooks';

/** A resolver that answers `address` for every name (the tests reach no DNS). */
const resolvingTo =
  (address: string) => (_host: string, _options: object, callback: (e: null, a: LookupAddress[]) => void) =>
    callback(null, [{ address, family: address.includes(':') ? 6 : 4 }]);

describe.each(await testEngines())("a partner's own webhook endpoints on %s", (engine) => {
  const { t, admin, receiver, setStatut, deliveries, pass, trpc } = webhookSuite(engine);
  const tokenFor = async (partenaire = 'IVY') =>
    (await createToken(t, admin.cookie, { partenaire, scopes: ['webhooks:manage'] })).secret;
  const send = (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

  it('registers, lists, renews and deletes its endpoints, the secret answered once', async () => {
    const token = await tokenFor();
    const created = await send(token, 'POST', '/api/webhooks', { url: PARTNER_URL });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({
      '@type': 'PointDeReception',
      url: PARTNER_URL,
      actif: true,
      origine: 'partenaire',
    });
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.headers.location).toBe(`/api/webhooks/${body.id}`);

    const list = await send(token, 'GET', '/api/webhooks');
    expect(list.statusCode).toBe(200);
    expect(list.json().member).toEqual([expect.objectContaining({ id: body.id, url: PARTNER_URL })]);
    expect(list.body).not.toContain(body.secret);
    expect(list.body).not.toContain('secret');
    const one = await send(token, 'GET', `/api/webhooks/${body.id}`);
    expect(one.json()).toMatchObject({
      id: body.id,
      livraisons: { enAttente: 0, livrees: 0, lettresMortes: 0 },
    });

    // The administrators see it on their screen, marked as the partner's.
    const screen = await t.app.inject({ url: '/trpc/webhooks.endpoints', headers: { cookie: admin.cookie } });
    expect(screen.json().result.data).toEqual([
      expect.objectContaining({
        id: body.id,
        origine: 'partenaire',
        partenaire: expect.objectContaining({ code: 'IVY' }),
      }),
    ]);

    const renewed = await send(token, 'POST', `/api/webhooks/${body.id}/secret`);
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect(renewed.json().secret).toMatch(/^whsec_/);
    expect(renewed.json().secret).not.toBe(body.secret);
    expect(renewed.json().ancienSecretJusquA).not.toBeNull();

    // An endpoint an administrator registered for the same partner is the unit's, not the token's.
    const byAdmin = await trpc('webhooks.createEndpoint', {
      partenaire: 'IVY',
      url: 'https://interne.example/hook',
    });
    expect(byAdmin.status).toBe(200);
    const adminId = byAdmin.body.result.data.id as number;
    expect(
      (await send(token, 'GET', '/api/webhooks')).json().member.map((e: { id: number }) => e.id),
    ).toEqual([body.id]);
    expect(list.body).not.toContain('interne.example');
    for (const [method, url] of [
      ['GET', `/api/webhooks/${adminId}`],
      ['POST', `/api/webhooks/${adminId}/secret`],
      ['DELETE', `/api/webhooks/${adminId}`],
    ] as const)
      expect((await send(token, method, url)).statusCode, `${method} ${url}`).toBe(404);

    const deleted = await send(token, 'DELETE', `/api/webhooks/${body.id}`);
    expect(deleted.statusCode).toBe(204);
    const again = await send(token, 'DELETE', `/api/webhooks/${body.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('Point de réception introuvable.');
  });

  it('refuses an address that is not public HTTPS, an unknown field, and a sixth endpoint, in French', async () => {
    const token = await tokenFor();
    for (const [url, message] of [
      [receiver.url(), ADDRESS_MESSAGES.httpsOnly],
      ['https://127.0.0.1/hooks', ADDRESS_MESSAGES.notPublic],
      ['https://10.1.2.3/hooks', ADDRESS_MESSAGES.notPublic],
      ['https://169.254.169.254/latest/meta-data', ADDRESS_MESSAGES.notPublic],
      ['https://[::1]/hooks', ADDRESS_MESSAGES.notPublic],
      ['https://localhost/hooks', ADDRESS_MESSAGES.notPublic],
      ['https://localhost./hooks', ADDRESS_MESSAGES.notPublic],
      // IPv4-compatible and IPv4-translated IPv6, outside the global unicast space: loopback and metadata.
      ['https://[::127.0.0.1]/hooks', ADDRESS_MESSAGES.notPublic],
      ['https://[::ffff:0:169.254.169.254]/hooks', ADDRESS_MESSAGES.notPublic],
      ['ftp://partenaire.example/hooks', "L'adresse doit commencer par https://."],
    ] as const) {
      const res = await send(token, 'POST', '/api/webhooks', { url });
      expect(res.statusCode, url).toBe(400);
      expect(res.body, url).toContain(JSON.stringify(message).slice(1, -1));
    }
    const extra = await send(token, 'POST', '/api/webhooks', { url: PARTNER_URL, partenaire: 'AUTRE' });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().message).toMatch(/Champ inconnu : partenaire/);
    expect(await deliveries()).toEqual([]);

    for (let i = 0; i < PARTNER_WEBHOOK_MAX_ENDPOINTS; i++)
      expect((await send(token, 'POST', '/api/webhooks', { url: `${PARTNER_URL}/${i}` })).statusCode).toBe(
        201,
      );
    const sixth = await send(token, 'POST', '/api/webhooks', { url: PARTNER_URL });
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json().message).toBe(PARTNER_WEBHOOK_MESSAGES.tooMany);
    // Two at once for the last place: one wins.
    await send(
      token,
      'DELETE',
      `/api/webhooks/${(await send(token, 'GET', '/api/webhooks')).json().member[0].id}`,
    );
    const racing = await Promise.all([
      send(token, 'POST', '/api/webhooks', { url: `${PARTNER_URL}/a` }),
      send(token, 'POST', '/api/webhooks', { url: `${PARTNER_URL}/b` }),
    ]);
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const e = t.db.t.webhookEndpoints;
    expect(await t.db.read.select({ id: e.id }).from(e)).toHaveLength(PARTNER_WEBHOOK_MAX_ENDPOINTS);
  });

  it('never calls a partner endpoint whose name resolves to a private address, nor one stored in plain HTTP', async () => {
    const token = await tokenFor();
    const created = await send(token, 'POST', '/api/webhooks', { url: PARTNER_URL });
    expect(created.statusCode).toBe(201);
    // Written around the service: the partner's endpoint in plain HTTP to the loopback receiver.
    const { partenaires: p } = t.db.t;
    const [ivy] = await t.db.read.select({ id: p.id }).from(p).where(eq(p.code, 'IVY'));
    await insertEndpoint(t.ctx, ivy!.id, receiver.url(), 'partenaire');
    const code = await createReport(t, admin.cookie);
    await setStatut(code, 'EN_COURS');

    // The name answers the receiver's own address: refused when the socket would connect, nothing sent.
    expect(await pass(systemClock, { resolve: resolvingTo('127.0.0.1') })).toBe(2);
    const after = await deliveries();
    expect(after.map((d) => [d.status, d.lastError]).sort()).toEqual(
      [
        ['pending', `Adresse refusée : ${ADDRESS_MESSAGES.httpsOnly}`],
        ['pending', ADDRESS_MESSAGES.resolvedNotPublic('recepteur.partenaire.example', '127.0.0.1')],
      ].sort(),
    );
    expect(receiver.received).toHaveLength(0);
  });
});

describe.each(await testEngines())(
  'partner endpoints under WEBHOOK_PARTNER_ADDRESSES=any on %s',
  (engine) => {
    const { t, admin, receiver, setStatut, pass, trpc } = webhookSuite(engine, {
      WEBHOOK_PARTNER_ADDRESSES: 'any',
    });

    // Found by the security review of 0051: a token deleted the endpoint an administrator had disabled and
    // registered the same address again, delivered to at once. A disabled endpoint now stays, and freezes
    // the partner's registrations until an administrator re-enables or deletes it.
    it('keeps deliveries off an endpoint an administrator disabled: the token can neither delete it nor register another', async () => {
      const token = (await createToken(t, admin.cookie, { partenaire: 'IVY', scopes: ['webhooks:manage'] }))
        .secret;
      const send = (method: 'POST' | 'DELETE', url: string, payload?: object) =>
        t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
      const created = await send('POST', '/api/webhooks', { url: receiver.url('/partenaire') });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().id as number;
      expect((await trpc('webhooks.setEndpointEnabled', { id, actif: false })).status).toBe(200);

      const deleted = await send('DELETE', `/api/webhooks/${id}`);
      expect(deleted.statusCode).toBe(409);
      expect(deleted.json().message).toBe(PARTNER_WEBHOOK_MESSAGES.disabledByAdmin);
      const again = await send('POST', '/api/webhooks', { url: receiver.url('/partenaire') });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(PARTNER_WEBHOOK_MESSAGES.frozen);
      const code = await createReport(t, admin.cookie);
      await setStatut(code, 'EN_COURS');
      expect(await pass(systemClock, { partnerAddresses: 'any' })).toBe(0);
      expect(receiver.received).toHaveLength(0);

      // Re-enabled by an administrator (a disabled endpoint got no event meanwhile, 0039): the next change
      // goes, and the partner manages its endpoints again.
      expect((await trpc('webhooks.setEndpointEnabled', { id, actif: true })).status).toBe(200);
      await setStatut(code, 'TRAITE');
      expect(await pass(systemClock, { partnerAddresses: 'any' })).toBe(1);
      expect(receiver.received).toHaveLength(1);
      expect((await send('DELETE', `/api/webhooks/${id}`)).statusCode).toBe(204);
    });

    it('delivers signed to the endpoint the partner registered, with both signatures after its renewal', async () => {
      const token = (await createToken(t, admin.cookie, { partenaire: 'IVY', scopes: ['webhooks:manage'] }))
        .secret;
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers: bearer(token),
        payload: { url: receiver.url('/partenaire') },
      });
      expect(created.statusCode, created.body).toBe(201);
      const { id, secret } = created.json();
      const code = await createReport(t, admin.cookie);
      await setStatut(code, 'EN_COURS');
      expect(await pass(systemClock, { partnerAddresses: 'any' })).toBe(1);
      const [first] = receiver.received;
      expect(first!.path).toBe('/partenaire');
      expect(verifyStandardWebhook(secret, first!.headers, first!.body)).toBe(true);

      const renewed = await t.app.inject({
        method: 'POST',
        url: `/api/webhooks/${id}/secret`,
        headers: bearer(token),
      });
      await setStatut(code, 'TRAITE');
      expect(await pass(systemClock, { partnerAddresses: 'any' })).toBe(1);
      const second = receiver.received[1]!;
      expect(verifyStandardWebhook(renewed.json().secret, second.headers, second.body)).toBe(true);
      expect(verifyStandardWebhook(secret, second.headers, second.body)).toBe(true);
      // Under the default rule the same endpoint is never called.
      await setStatut(code, 'EN_COURS');
      expect(await pass()).toBe(1);
      expect(receiver.received).toHaveLength(2);
    });
  },
);
