// Cross-site request forgery: writes and the reset GET must come from the application's own pages;
// bodies are JSON only. A browser sends Sec-Fetch-Site (and Origin on writes); a page on another
// site cannot forge them, nor send a JSON body without a CORS preflight this server never grants.
import { describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { serverSuite } from '#tests/helpers/suite';
import { outbox } from '#tests/helpers/smtp';

const CROSS_SITE = "Requête refusée : elle ne provient pas de l'application.";

describe.each(await testEngines())('CSRF defences on %s', (engine) => {
  const {
    app: t,
    admin,
    user: target,
  } = serverSuite(engine, {
    env: { PUBLIC_URL: 'https://signalements.example.mg' },
    user: { email: 'cible@example.mg' },
  });

  const resetMails = async () => (await outbox(t.db)).filter((m) => m.to === 'cible@example.mg').length;
  const stillLoggedIn = async (cookie: string) =>
    (await t.app.inject({ url: '/api/utilisateur/who-am-i', headers: { cookie } })).statusCode === 200;

  it('refuses the reset-password GET from a cross-site navigation, and sends nothing', async () => {
    const before = await resetMails();
    for (const headers of [
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'none' },
      { origin: 'https://evil.example' },
      {}, // an old browser sends neither: a header a navigation cannot carry is then required
    ]) {
      const res = await t.app.inject({
        url: `/api/utilisateur/reset-password/${target.code}`,
        headers: { cookie: admin.cookie, ...headers },
      });
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json().message).toBe(CROSS_SITE);
    }
    expect(await resetMails()).toBe(before);
    for (const headers of [
      { 'sec-fetch-site': 'same-origin' },
      { origin: 'https://signalements.example.mg' },
      { 'x-requested-with': 'fetch' },
    ]) {
      const ok = await t.app.inject({
        url: `/api/utilisateur/reset-password/${target.code}`,
        headers: { cookie: admin.cookie, ...headers },
      });
      expect(ok.statusCode, JSON.stringify(headers)).toBe(200);
    }
    expect(await resetMails()).toBe(before + 3);
  });

  it('refuses a cross-site text/plain POST that would log the user out', async () => {
    const cookie = await t.login('admin@example.mg');
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { cookie, origin: 'https://evil.example', 'content-type': 'text/plain' },
      payload: 'x',
    });
    expect(forged.statusCode).toBe(403);
    const plain = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { cookie, 'content-type': 'text/plain' },
      payload: 'x',
    });
    expect(plain.statusCode).toBe(415);
    expect(plain.json().message).toBe('Les données doivent être envoyées en JSON.');
    const trpc = await t.app.inject({
      method: 'POST',
      url: '/trpc/auth.logout',
      headers: { cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(trpc.statusCode).toBe(403);
    expect(await stillLoggedIn(cookie)).toBe(true);
    const own = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
    });
    expect(own.statusCode).toBe(204);
    expect(await stillLoggedIn(cookie)).toBe(false);
  });

  it('accepts tRPC mutations in JSON only (no multipart, no form, no octet-stream)', async () => {
    const cookie = await t.login('admin@example.mg');
    for (const type of [
      'multipart/form-data; boundary=x',
      'application/x-www-form-urlencoded',
      'application/octet-stream',
      'text/plain',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/trpc/partenaires.create',
        headers: { cookie, 'content-type': type, 'sec-fetch-site': 'same-origin' },
        payload: type.startsWith('multipart')
          ? '--x\r\nContent-Disposition: form-data; name="designation"\r\n\r\nPirate\r\n--x--'
          : 'designation=Pirate',
      });
      expect(res.statusCode, type).toBe(415);
    }
    const partners = await t.app.inject({ url: '/api/partenaires?search=Pirate', headers: { cookie } });
    expect(partners.json().totalItems).toBe(0);
  });

  it('refuses a cross-site log-in (login CSRF) and accepts one from the application', async () => {
    const payload = { email: 'admin@example.mg', password: 'mot-de-passe-de-test-42' };
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'sec-fetch-site': 'cross-site' },
      payload,
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.cookies.find((c) => c.name === 'session')).toBeUndefined();
    const own = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { origin: 'https://signalements.example.mg' },
      payload,
    });
    expect(own.statusCode).toBe(200);
  });
});
