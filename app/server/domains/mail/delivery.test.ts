import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { serverSuite } from '#tests/helpers/suite';
import {
  outbox,
  passwordLinkIn,
  settle,
  startTestSmtp,
  startTestWorker,
  type TestSmtp,
} from '#tests/helpers/smtp';
import { enqueueMail } from './outbox';
import { retryDelayMs } from './delivery';
import { messageIdOf } from './transport';
import type { MailWorker } from './worker';

const PUBLIC_URL = 'http://signalements.test:8080';

describe.each(await testEngines())('mail delivery on %s', (engine) => {
  const { app: t, admin } = serverSuite(engine, { env: { PUBLIC_URL } });
  let smtp: TestSmtp;
  const workers: MailWorker[] = [];
  const config = () => ({ SMTP_URL: smtp.url, MAIL_FROM: t.config.MAIL_FROM, PUBLIC_URL });
  const worker = (options: Parameters<typeof startTestWorker>[2] = {}) => {
    const w = startTestWorker(t.ctx, config(), options);
    workers.push(w);
    return w;
  };
  let n = 0;
  const createUser = (email = `u${++n}@example.mg`) =>
    t.app.inject({
      method: 'POST',
      url: '/api/utilisateur/create-user',
      headers: { cookie: admin.cookie },
      payload: { email, nomPrenom: `Rakoto ${n}`, utilisateurRole: 'ROLE_USER' },
    });
  const received = (to: string) => smtp.received.filter((m) => m.to === to);

  beforeAll(async () => {
    smtp = await startTestSmtp();
  });
  beforeEach(async () => {
    smtp.refuseWith = null;
    await smtp.start();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    // Leave nothing pending for the next test's worker.
    await t.db.transaction((tx) => tx.delete(t.db.t.mailOutbox));
  });
  afterAll(async () => {
    await smtp?.close();
  });

  it('sends the set-up e-mail over SMTP in French, text and HTML, with a link built from PUBLIC_URL', async () => {
    worker();
    expect((await createUser('nouveau@example.mg')).statusCode).toBe(201);
    const mail = await smtp.waitFor((m) => m.to === 'nouveau@example.mg');
    expect(mail.subject).toBe('Signalements : activez votre compte');
    expect(mail.from).toContain('no-reply@signalements.local');
    expect(mail.text).toContain('Bonjour Rakoto');
    expect(mail.text).toContain('Ce lien est valable 48 heures');
    const link = passwordLinkIn(mail);
    expect(link.startsWith(`${PUBLIC_URL}/admin/definir-mot-de-passe/`)).toBe(true);
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.html).toContain('Choisir mon mot de passe');
    await expect.poll(async () => (await outbox(t.db))[0]?.status, { timeout: 5000 }).toBe('sent');
    const [row] = await outbox(t.db);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lastError: null, kind: 'account-setup' });
    expect(row!.sentAt).toBeInstanceOf(Date);
    expect(mail.messageId).toBe(messageIdOf(row!, PUBLIC_URL));
    // The token is not kept in the database once the message is delivered.
    const token = link.split('/').pop()!;
    expect(row!.text).not.toContain(token);
    expect(row!.html).not.toContain(token);
    expect(row!.text).toContain('/admin/definir-mot-de-passe/***');
  });

  it('keeps every message while the SMTP server is down and delivers each exactly once when it is back', async () => {
    worker();
    await smtp.stop();
    const before = smtp.received.length;
    const emails = ['panne1@example.mg', 'panne2@example.mg', 'panne3@example.mg'];
    for (const email of emails) expect((await createUser(email)).statusCode).toBe(201);
    const code = (
      await t.app.inject({ url: '/api/utilisateurs?nomPrenom=', headers: { cookie: admin.cookie } })
    )
      .json()
      .member.find((u: { email: string }) => u.email === 'agent@example.mg').code;
    expect(
      (
        await t.app.inject({
          url: `/api/utilisateur/reset-password/${code}`,
          headers: { cookie: admin.cookie, 'x-requested-with': 'fetch' },
        })
      ).statusCode,
    ).toBe(200);
    // Several failed attempts each, none marked sent, the connection error recorded.
    await expect
      .poll(async () => Math.min(...(await outbox(t.db)).map((r) => r.attempts)), { timeout: 10_000 })
      .toBeGreaterThanOrEqual(3);
    for (const row of await outbox(t.db)) {
      expect(row.status).toBe('pending');
      expect(row.lastError).toMatch(/ECONNREFUSED|connect/i);
    }
    expect(smtp.received.length).toBe(before);

    await smtp.start();
    await expect
      .poll(async () => (await outbox(t.db)).filter((r) => r.status !== 'sent'), { timeout: 10_000 })
      .toEqual([]);
    // One more pass over the outbox and no send left in progress: nothing was sent a second time.
    await settle(t.db, smtp, workers);
    for (const email of [...emails, 'agent@example.mg']) expect(received(email)).toHaveLength(1);
    expect(smtp.received.length).toBe(before + 4 + 1);
    expect(new Set(smtp.received.map((m) => m.messageId)).size).toBe(smtp.received.length);
  });

  it('retries a temporarily refused message (451) and marks it sent only once the server accepts it', async () => {
    smtp.refuseWith = { code: 451, message: 'Boîte temporairement indisponible' };
    worker();
    expect((await createUser('refus@example.mg')).statusCode).toBe(201);
    await expect
      .poll(async () => (await outbox(t.db))[0]?.attempts, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(3);
    const [pending] = await outbox(t.db);
    expect(pending).toMatchObject({ status: 'pending', sentAt: null });
    expect(pending!.lastError).toContain('451');
    expect(received('refus@example.mg')).toHaveLength(0);
    smtp.refuseWith = null;
    await smtp.waitFor((m) => m.to === 'refus@example.mg');
    await expect.poll(async () => (await outbox(t.db))[0]?.status, { timeout: 5000 }).toBe('sent');
    await settle(t.db, smtp, workers);
    expect(received('refus@example.mg')).toHaveLength(1);
  });

  it('marks a message failed with its last error after the last attempt', async () => {
    smtp.refuseWith = { code: 451, message: 'Toujours indisponible' };
    worker({ policy: { maxAttempts: 3 } });
    expect((await createUser('trois@example.mg')).statusCode).toBe(201);
    await expect.poll(async () => (await outbox(t.db))[0]?.status, { timeout: 10_000 }).toBe('failed');
    const [row] = await outbox(t.db);
    expect(row!.attempts).toBe(3);
    expect(row!.lastError).toContain('Toujours indisponible');
  });

  it('marks a permanently refused message (550) failed at once; an admin sees it and retries it', async () => {
    smtp.refuseWith = { code: 550, message: 'Destinataire inconnu' };
    worker();
    expect((await createUser('inconnu@example.mg')).statusCode).toBe(201);
    await expect.poll(async () => (await outbox(t.db))[0]?.status, { timeout: 10_000 }).toBe('failed');
    const [row] = await outbox(t.db);
    expect(row!.attempts).toBe(1);
    expect(row!.lastError).toContain('550');

    const user = await t.login('agent@example.mg');
    expect(
      (await t.app.inject({ url: '/api/mail_outbox/failed', headers: { cookie: user } })).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ url: '/trpc/mail.failed', headers: { cookie: user } })).statusCode).toBe(
      403,
    );
    const retryAsUser = await t.app.inject({
      method: 'POST',
      url: `/api/mail_outbox/${row!.id}/retry`,
      headers: { cookie: user },
    });
    expect(retryAsUser.statusCode).toBe(403);

    const list = await t.app.inject({ url: '/api/mail_outbox/failed', headers: { cookie: admin.cookie } });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ '@type': 'Collection', totalItems: 1 });
    expect(list.json().member[0]).toMatchObject({
      '@id': `/api/mail_outbox/${row!.id}`,
      id: row!.id,
      to: 'inconnu@example.mg',
      kind: 'account-setup',
      subject: 'Signalements : activez votre compte',
      attempts: 1,
    });
    const viaTrpc = await t.app.inject({ url: '/trpc/mail.failed', headers: { cookie: admin.cookie } });
    expect(viaTrpc.json().result.data).toEqual(list.json().member);

    smtp.refuseWith = null;
    const retry = await t.app.inject({
      method: 'POST',
      url: `/api/mail_outbox/${row!.id}/retry`,
      headers: { cookie: admin.cookie },
    });
    expect(retry.statusCode).toBe(200);
    await smtp.waitFor((m) => m.to === 'inconnu@example.mg');
    await expect.poll(async () => (await outbox(t.db))[0]?.status, { timeout: 5000 }).toBe('sent');
    const again = await t.app.inject({
      method: 'POST',
      url: '/trpc/mail.retry',
      headers: { cookie: admin.cookie },
      payload: { id: row!.id },
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe('Email introuvable ou déjà remis en file d’envoi.');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/mail_outbox/abc/retry',
          headers: { cookie: admin.cookie },
        })
      ).statusCode,
    ).toBe(400);
  });

  it('never sends a message twice when two workers (two server processes) share the outbox', async () => {
    const tag = `double-${engine}`;
    await t.db.transaction(async () => {
      for (let i = 0; i < 12; i++) {
        await enqueueMail(t.db, {
          kind: 'partner-notification',
          to: `${tag}-${i}@example.mg`,
          subject: `n°${i}`,
          text: 'Bonjour',
        });
      }
    });
    worker();
    worker();
    await expect
      .poll(async () => (await outbox(t.db)).filter((r) => r.status !== 'sent'), { timeout: 10_000 })
      .toEqual([]);
    await settle(t.db, smtp, workers);
    const mine = smtp.received.filter((m) => m.to.startsWith(tag));
    expect(mine).toHaveLength(12);
    expect(new Set(mine.map((m) => m.to)).size).toBe(12);
    expect((await outbox(t.db)).every((r) => r.attempts === 1)).toBe(true);
  });

  it('wakes up at once when a message is queued, even after backing off', async () => {
    // Without the wake-up, the first look at the outbox would be a minute away.
    const w = worker({ pollMs: 60_000, maxIdleMs: 60_000 });
    await expect.poll(() => w.sleeping).toBe(true);
    const started = Date.now();
    expect((await createUser('reveil@example.mg')).statusCode).toBe(201);
    await smtp.waitFor((m) => m.to === 'reveil@example.mg', 5000);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('wakes up once the enqueuing transaction has committed, however long it runs after the enqueue', async () => {
    // A look at the outbox before the COMMIT would find nothing, and the next one would be a minute away.
    const w = worker({ pollMs: 60_000, maxIdleMs: 60_000 });
    await expect.poll(() => w.sleeping).toBe(true);
    const started = Date.now();
    await t.db.transaction(async () => {
      await enqueueMail(t.db, {
        kind: 'partner-notification',
        to: 'apres-validation@example.mg',
        subject: 'Après validation',
        text: 'Bonjour',
      });
      // The transaction's own work after the enqueue: the time it stays open is what the test is about.
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    await smtp.waitFor((m) => m.to === 'apres-validation@example.mg', 5000);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('stops promptly, aborting a send stuck on an unresponsive server, and never marks it sent', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const w = startTestWorker(
      t.ctx,
      { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: t.config.MAIL_FROM, PUBLIC_URL },
      { stopGraceMs: 200 },
    );
    expect((await createUser('muet@example.mg')).statusCode).toBe(201);
    await expect.poll(() => sockets.length, { timeout: 5000 }).toBeGreaterThan(0);
    const started = Date.now();
    await w.stop();
    expect(Date.now() - started).toBeLessThan(2000);
    const [row] = await outbox(t.db);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, sentAt: null });
    expect(row!.lastError).toContain("Arrêt du serveur pendant l'envoi");
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });
});

describe('retry back-off', () => {
  it('doubles after each failed attempt up to the cap', () => {
    const policy = { retryBaseMs: 60_000, retryMaxMs: 3_600_000 };
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelayMs(n, policy) / 60_000)).toEqual([
      1, 2, 4, 8, 16, 32, 60, 60,
    ]);
  });
});
