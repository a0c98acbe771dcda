import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { memoryLogger, outbox, startTestWorker } from '#tests/helpers/smtp';
import {
  accountSetupMail,
  escapeHtml,
  passwordLink,
  passwordResetMail,
  redactPasswordLinks,
} from './templates';
import { createMailTransport } from './transport';

describe.each(await testEngines())('mail without SMTP_URL on %s', (engine) => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await createTestApp(engine, { PUBLIC_URL: 'https://signalements.example.mg/' });
    await t.user('admin@example.mg', 'ROLE_ADMIN');
    dir = mkdtempSync(join(tmpdir(), 'signalements-mail-'));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes each message as an .eml file under the mail folder, logs its path and marks it sent', async () => {
    const log = memoryLogger();
    const worker = startTestWorker(
      t.ctx,
      { MAIL_FROM: t.config.MAIL_FROM, PUBLIC_URL: t.config.PUBLIC_URL },
      {
        mailDir: dir,
        log,
      },
    );
    try {
      const cookie = await t.login('admin@example.mg');
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/utilisateur/create-user',
        headers: { cookie },
        payload: { email: 'fichier@example.mg', nomPrenom: 'Randria Fichier', utilisateurRole: 'ROLE_USER' },
      });
      expect(res.statusCode).toBe(201);
      await expect.poll(async () => (await outbox(t.db))[0]?.status, { timeout: 5000 }).toBe('sent');
      const files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
      expect(files).toHaveLength(1);
      const path = join(dir, files[0]!);
      expect(log.lines.some((l) => l.level === 'info' && l.msg.includes(path))).toBe(true);
      const parsed = await simpleParser(readFileSync(path));
      expect(parsed.subject).toBe('Signalements : activez votre compte');
      expect(parsed.text).toMatch(
        /https:\/\/signalements\.example\.mg\/admin\/definir-mot-de-passe\/[A-Za-z0-9_-]{43}\n/,
      );
      expect(parsed.html).toContain('Choisir mon mot de passe');
    } finally {
      await worker.stop();
    }
  });
});

describe('mail files without SMTP_URL', () => {
  const root = mkdtempSync(join(tmpdir(), 'signalements-mail-modes-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const mail = (id: number) => ({
    id,
    to: 'a@b.mg',
    subject: 'Objet',
    text: 'Texte',
    html: null,
    createdAt: new Date(),
  });
  const send = (mailDir: string, id: number) =>
    createMailTransport(
      { MAIL_FROM: 'Signalements <no-reply@signalements.local>', PUBLIC_URL: 'http://localhost:3000' },
      { mailDir, log: memoryLogger() },
    ).send(mail(id), new AbortController().signal);
  const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

  it('writes owner-only files (0600) in an owner-only folder (0700) that it creates', async () => {
    const dir = join(root, 'nouveau', 'mail');
    const { location } = await send(dir, 1);
    expect(await modeOf(dir)).toBe(0o700);
    expect(await modeOf(location!)).toBe(0o600);
  });

  it('takes back the rights of an existing folder open to others', async () => {
    const dir = join(root, 'ancien');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    const { location } = await send(dir, 2);
    expect(await modeOf(dir)).toBe(0o700);
    expect(await modeOf(location!)).toBe(0o600);
  });
});

describe('mail templates', () => {
  const link = passwordLink('https://signalements.example.mg/', 'abc_DEF-123');

  it('builds the link from PUBLIC_URL under /admin', () => {
    expect(link).toBe('https://signalements.example.mg/admin/definir-mot-de-passe/abc_DEF-123');
  });

  it('writes the set-up and reset messages in French, in plain text and HTML, with the link in both', () => {
    const setup = accountSetupMail({ to: 'a@b.mg', nomPrenom: 'Rabe <Hery>', link });
    expect(setup).toMatchObject({
      kind: 'account-setup',
      to: 'a@b.mg',
      subject: 'Signalements : activez votre compte',
    });
    expect(setup.text).toContain('Bonjour Rabe <Hery>,');
    expect(setup.text).toContain(link);
    expect(setup.html).toContain('Bonjour Rabe &lt;Hery&gt;,');
    expect(setup.html).toContain(`href="${link}"`);
    const reset = passwordResetMail({ to: 'a@b.mg', nomPrenom: 'Rabe', link });
    expect(reset.kind).toBe('password-reset');
    expect(reset.subject).toBe('Signalements : réinitialisation de votre mot de passe');
    expect(reset.text).toContain('Ce lien est valable 48 heures');
    expect(reset.html).toContain('Choisir un nouveau mot de passe');
  });

  it('redacts the token of a link and escapes HTML', () => {
    expect(redactPasswordLinks(`voir ${link} ici`)).toBe(
      'voir https://signalements.example.mg/admin/definir-mot-de-passe/*** ici',
    );
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
