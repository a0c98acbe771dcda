// Decision 0004: a message claimed by a delivery process that died is taken again at once by a live worker
// (not after its 10-minute lease), shown to administrators meanwhile, and can be sent again at once; old
// sent messages and used or expired password links are purged after MAIL_RETENTION_DAYS.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { startTestSmtp, startTestWorker, type TestSmtp } from '#tests/helpers/smtp';
import { DEFAULT_POLICY, deliverDueMail } from './delivery';
import { purgeExpired } from './retention';
import type { MailWorker } from './worker';
import { STALE_MS } from './workers';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe.each(await testEngines())('stale claims and retention on %s', (engine) => {
  let t: TestApp;
  let smtp: TestSmtp;
  let admin: string;
  const workers: MailWorker[] = [];
  const silentLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

  beforeAll(async () => {
    t = await createTestApp(engine);
    await t.user('admin@example.mg', 'ROLE_ADMIN', 'Rasoa Admin');
    admin = await t.login('admin@example.mg');
    smtp = await startTestSmtp();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    await t.db.transaction(async (tx) => {
      await tx.delete(t.db.t.mailOutbox);
      await tx.delete(t.db.t.mailWorkers);
    });
  });
  afterAll(async () => {
    await smtp?.close();
    await t?.close();
  });

  const o = () => t.db.t.mailOutbox;
  /** A message claimed 1 minute ago by `worker`, its lease running for 9 more minutes. */
  const claimedBy = async (worker: string, to: string) => {
    const [row] = await t.db.transaction((tx) =>
      tx
        .insert(o())
        .values({
          kind: 'password-reset',
          to,
          subject: 'Réinitialisation',
          text: 'Lien',
          attempts: 1,
          nextAttemptAt: new Date(Date.now() + 9 * MINUTE),
          claimedBy: worker,
          claimedAt: new Date(Date.now() - MINUTE),
        })
        .returning({ id: o().id }),
    );
    return Number(row!.id);
  };
  const workerRow = (id: string, beatAgoMs: number) =>
    t.db.transaction((tx) =>
      tx
        .insert(t.db.t.mailWorkers)
        .values({ id, beatAt: new Date(Date.now() - beatAgoMs), startedAt: new Date(Date.now() - DAY) }),
    );
  const failedList = async () =>
    (await t.app.inject({ url: '/api/mail_outbox/failed', headers: { cookie: admin } })).json().member;

  it('shows a message held by a dead process to administrators, and a live worker sends it at once', async () => {
    await workerRow('mort:1', STALE_MS + 5000);
    const id = await claimedBy('mort:1', 'bloque@example.mg');
    expect(await failedList()).toMatchObject([{ id, to: 'bloque@example.mg', state: 'stuck' }]);

    workers.push(
      startTestWorker(t.ctx, { SMTP_URL: smtp.url, MAIL_FROM: t.config.MAIL_FROM, PUBLIC_URL: 'http://x' }),
    );
    await smtp.waitFor((m) => m.to === 'bloque@example.mg', 15_000);
    await expect
      .poll(async () => (await t.db.read.select().from(o()).where(eq(o().id, id)))[0]?.status, {
        timeout: 10_000,
      })
      .toBe('sent');
    expect(await failedList()).toEqual([]);
  });

  it('leaves a message held by a live process alone: neither taken nor shown', async () => {
    await workerRow('vivant:1', 1000);
    await workerRow('autre', 0);
    const id = await claimedBy('vivant:1', 'occupe@example.mg');
    const claimed = await deliverDueMail(
      t.db,
      { description: 'test', send: async () => ({}), close: () => undefined },
      { ...DEFAULT_POLICY, workerId: 'autre' },
      {
        signal: new AbortController().signal,
        log: silentLog,
        shouldStop: () => false,
      },
    );
    expect(claimed).toBe(0);
    expect(await failedList()).toEqual([]);
    expect((await t.db.read.select().from(o()).where(eq(o().id, id)))[0]).toMatchObject({
      status: 'pending',
      claimedBy: 'vivant:1',
    });
  });

  it('claims nothing for a worker whose own heartbeat is missing or stale, and writes no outcome over a claim it lost', async () => {
    await workerRow('mort:3', STALE_MS + 5000);
    const due = await claimedBy('mort:3', 'du@example.mg');
    const sent: string[] = [];
    const transport = {
      description: 'test',
      send: async (mail: { to: string }) => (sent.push(mail.to), {}),
      close: () => undefined,
    };
    const pass = (workerId: string) =>
      deliverDueMail(
        t.db,
        transport,
        { ...DEFAULT_POLICY, workerId },
        { signal: new AbortController().signal, log: silentLog, shouldStop: () => false },
      );
    // Never registered, then registered but silent for longer than STALE_MS: the others would take it for dead.
    expect(await pass('jamais-inscrit')).toBe(0);
    await workerRow('muet', STALE_MS + 1000);
    expect(await pass('muet')).toBe(0);
    expect(sent).toEqual([]);

    // A live worker takes it; while it sends, another takes the message over (it was taken for dead):
    // the first one's outcome is not written over the other's claim.
    await workerRow('lent', 0);
    const slow = {
      ...transport,
      send: async (mail: { to: string }) => {
        await t.db.transaction((tx) => tx.update(o()).set({ claimedBy: 'repreneur' }).where(eq(o().id, due)));
        sent.push(mail.to);
        return {};
      },
    };
    expect(
      await deliverDueMail(
        t.db,
        slow,
        { ...DEFAULT_POLICY, workerId: 'lent' },
        { signal: new AbortController().signal, log: silentLog, shouldStop: () => false },
      ),
    ).toBe(1);
    expect(sent).toEqual(['du@example.mg']);
    expect((await t.db.read.select().from(o()).where(eq(o().id, due)))[0]).toMatchObject({
      status: 'pending',
      claimedBy: 'repreneur',
    });
  });

  it('lets an administrator send a held message again at once (REST and tRPC), and nobody else', async () => {
    await workerRow('mort:2', STALE_MS + 5000);
    const first = await claimedBy('mort:2', 'a@example.mg');
    const second = await claimedBy('mort:2', 'b@example.mg');
    await t.user('agent@example.mg', 'ROLE_USER');
    const agent = await t.login('agent@example.mg');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/mail_outbox/${first}/retry`,
          headers: { cookie: agent, ...SAME_ORIGIN },
        })
      ).statusCode,
    ).toBe(403);

    const rest = await t.app.inject({
      method: 'POST',
      url: `/api/mail_outbox/${first}/retry`,
      headers: { cookie: admin, ...SAME_ORIGIN },
    });
    expect(rest.statusCode).toBe(200);
    const trpc = await t.app.inject({
      method: 'POST',
      url: '/trpc/mail.retry',
      headers: { cookie: admin, ...SAME_ORIGIN },
      payload: { id: second },
    });
    expect(trpc.statusCode).toBe(200);
    for (const id of [first, second]) {
      const [row] = await t.db.read.select().from(o()).where(eq(o().id, id));
      expect(row).toMatchObject({ status: 'pending', claimedBy: null, attempts: 1 });
      expect(row!.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now());
    }
  });

  it('registers each worker while it runs and removes it at a clean stop', async () => {
    const worker = startTestWorker(t.ctx, {
      SMTP_URL: smtp.url,
      MAIL_FROM: t.config.MAIL_FROM,
      PUBLIC_URL: 'http://x',
    });
    await expect
      .poll(
        async () =>
          (await t.db.read.select().from(t.db.t.mailWorkers).where(eq(t.db.t.mailWorkers.id, worker.id)))
            .length,
        { timeout: 5000 },
      )
      .toBe(1);
    await worker.stop();
    expect(
      await t.db.read.select().from(t.db.t.mailWorkers).where(eq(t.db.t.mailWorkers.id, worker.id)),
    ).toEqual([]);
  });

  it('purges sent messages and used or expired links older than the retention, and keeps the rest', async () => {
    const now = new Date();
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const mail = (
      status: 'sent' | 'failed' | 'pending',
      to: string,
      sentAgo: number | null,
      createdAgo: number,
    ) => ({
      kind: 'password-reset',
      to,
      subject: 'S',
      text: 'T',
      status,
      nextAttemptAt: ago(createdAgo),
      sentAt: sentAgo === null ? null : ago(sentAgo),
      createdAt: ago(createdAgo),
    });
    await t.db.transaction((tx) =>
      tx
        .insert(o())
        .values([
          mail('sent', 'vieux@example.mg', 40 * DAY, 40 * DAY),
          mail('sent', 'recent@example.mg', 10 * DAY, 10 * DAY),
          mail('failed', 'echec@example.mg', null, 90 * DAY),
          mail('pending', 'attente@example.mg', null, 90 * DAY),
        ]),
    );
    const [user] = await t.db.read.select({ id: t.db.t.utilisateurs.id }).from(t.db.t.utilisateurs).limit(1);
    const p = t.db.t.passwordTokens;
    const link = (hash: string, expiresAgo: number, usedAgo: number | null) => ({
      tokenHash: hash,
      userId: user!.id,
      purpose: 'reset' as const,
      expiresAt: ago(expiresAgo),
      usedAt: usedAgo === null ? null : ago(usedAgo),
    });
    await t.db.transaction((tx) =>
      tx
        .insert(p)
        .values([
          link('utilise-vieux', 39 * DAY, 40 * DAY),
          link('expire-vieux', 40 * DAY, null),
          link('utilise-recent', -DAY, 2 * DAY),
          link('valide', -DAY, null),
        ]),
    );
    const purged = await purgeExpired(t.ctx, 30 * DAY, now);
    expect(purged).toMatchObject({ mails: 1, links: 2 });
    const left = (await t.db.read.select({ to: o().to }).from(o())).map((r) => r.to).sort();
    expect(left).toEqual(['attente@example.mg', 'echec@example.mg', 'recent@example.mg']);
    const links = (await t.db.read.select({ hash: p.tokenHash }).from(p)).map((r) => r.hash);
    expect(links).toEqual(expect.arrayContaining(['utilise-recent', 'valide']));
    expect(links).not.toContain('utilise-vieux');
    expect(links).not.toContain('expire-vieux');
  });
});
