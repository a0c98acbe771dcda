// How a queued message leaves the process: nodemailer over SMTP when SMTP_URL is set, otherwise an
// .eml file under data/mail/ so that a local stack works without a mail server.
import { chmod, mkdir, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import nodemailer from 'nodemailer';

export interface MailToSend {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  createdAt: Date;
}

export interface MailTransport {
  /** 'smtp://host:port' or the .eml folder, for the logs. */
  readonly description: string;
  /** Resolves only once the message was accepted (SMTP 250 after DATA) or written; rejects otherwise. */
  send(mail: MailToSend, signal: AbortSignal): Promise<{ location?: string }>;
  close(): void;
}

export interface TransportConfig {
  SMTP_URL?: string;
  MAIL_FROM: string;
  PUBLIC_URL: string;
}

interface Logger {
  info(obj: object, msg: string): void;
}

// Bounded so that a stuck server cannot hold a message past its claim (see worker.ts, CLAIM_LEASE_MS).
const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };

export const DEFAULT_MAIL_DIR = resolve('data/mail');

// The messages carry password set-up links: only the server's own user may read them.
export const MAIL_DIR_MODE = 0o700;
export const EML_MODE = 0o600;

/** Creates the folder owner-only, and takes back the rights of an existing folder open to others. */
async function privateFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: MAIL_DIR_MODE });
  if (((await stat(dir)).mode & 0o777) !== MAIL_DIR_MODE) await chmod(dir, MAIL_DIR_MODE);
}

/**
 * A Message-ID derived from the outbox row, so that a receiving server (or a test) can recognise
 * a second copy of the same message.
 */
export function messageIdOf(mail: Pick<MailToSend, 'id' | 'createdAt'>, publicUrl: string): string {
  return `<outbox-${mail.id}-${mail.createdAt.getTime()}@${new URL(publicUrl).hostname || 'signalements.local'}>`;
}

function safeSmtpDescription(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}`;
}

export function createMailTransport(
  config: TransportConfig,
  options: { mailDir?: string; log: Logger },
): MailTransport {
  const message = (mail: MailToSend, signal: AbortSignal) => ({
    from: config.MAIL_FROM,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    ...(mail.html ? { html: mail.html } : {}),
    messageId: messageIdOf(mail, config.PUBLIC_URL),
    signal,
  });

  if (config.SMTP_URL) {
    // One connection per message (no pool): a restarted or replaced SMTP server is simply reconnected.
    const transporter = nodemailer.createTransport({ url: config.SMTP_URL, ...SMTP_TIMEOUTS });
    return {
      description: safeSmtpDescription(config.SMTP_URL),
      async send(mail, signal) {
        await transporter.sendMail(message(mail, signal));
        return {};
      },
      close: () => transporter.close(),
    };
  }

  const dir = options.mailDir ?? DEFAULT_MAIL_DIR;
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    description: dir,
    async send(mail, signal) {
      const info = await transporter.sendMail(message(mail, signal));
      await privateFolder(dir);
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const location = join(dir, `${stamp}-${mail.id}.eml`);
      await writeFile(location, info.message as Buffer, { flag: 'wx', mode: EML_MODE });
      options.log.info({ path: location }, `e-mail écrit dans ${location} (SMTP_URL non défini)`);
      return { location };
    },
    close: () => transporter.close(),
  };
}
