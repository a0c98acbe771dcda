// A real SMTP server on loopback (smtp-server) that keeps every message it accepts, for the mail
// tests and the browser tests. It can be stopped and restarted on the same port, and told to refuse.
import type { AddressInfo } from 'node:net';
import { asc } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';
import { vi } from 'vitest';
import type { AppContext } from '#server/context';
import type { Database } from '#server/db/client';
import { enqueueMail } from '#server/domains/mail/outbox';
import type { TransportConfig } from '#server/domains/mail/transport';
import { startMailWorker, type MailWorker, type MailWorkerOptions } from '#server/domains/mail/worker';

export interface ReceivedMail {
  messageId: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  raw: ParsedMail;
}

export interface TestSmtp {
  /** smtp://127.0.0.1:PORT, to pass as SMTP_URL. */
  readonly url: string;
  readonly port: number;
  readonly received: ReceivedMail[];
  /** While set, DATA is answered with this SMTP error (e.g. 451 for a temporary failure, 550 for a permanent one). */
  refuseWith: { code: number; message: string } | null;
  /** Resolves with the first message matching, waiting up to timeoutMs. */
  waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** Stops listening (connections are refused) until start() is called again. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

function createServer(onMail: (mail: ReceivedMail) => void, refusal: () => TestSmtp['refuseWith']) {
  return new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // Tests stop the server often: do not wait for idle clients.
    closeTimeout: 100,
    onData(stream: SMTPServerDataStream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const refuse = refusal();
        if (refuse) {
          const error = Object.assign(new Error(refuse.message), { responseCode: refuse.code });
          callback(error);
          return;
        }
        simpleParser(Buffer.concat(chunks))
          .then((parsed) => {
            onMail({
              messageId: parsed.messageId ?? '',
              to: [parsed.to]
                .flat()
                .map((a) => a?.text ?? '')
                .join(', '),
              from: parsed.from?.text ?? '',
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              raw: parsed,
            });
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
}

function listen(server: SMTPServer, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    const net = server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((net.address() as AddressInfo).port);
    });
  });
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const state: { refuseWith: TestSmtp['refuseWith'] } = { refuseWith: null };
  const onMail = (mail: ReceivedMail) => {
    received.push(mail);
    for (const wake of waiters) wake();
  };
  let server: SMTPServer | null = createServer(onMail, () => state.refuseWith);
  const port = await listen(server, 0);

  const stopServer = () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      const current = server;
      server = null;
      current.close(() => resolve());
    });

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    get refuseWith() {
      return state.refuseWith;
    },
    set refuseWith(value) {
      state.refuseWith = value;
    },
    waitFor(predicate, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = received.find(predicate);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`aucun e-mail attendu reçu en ${timeoutMs} ms (${received.length} reçu(s))`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    stop: stopServer,
    async start() {
      if (server) return;
      server = createServer(onMail, () => state.refuseWith);
      await listen(server, port);
    },
    close: stopServer,
  };
}

/** The set-up or reset link of a received message. */
export function passwordLinkIn(mail: Pick<ReceivedMail, 'text'>): string {
  const match = /https?:\/\/\S+\/admin\/definir-mot-de-passe\/[A-Za-z0-9_-]+/.exec(mail.text);
  if (!match) throw new Error(`pas de lien de mot de passe dans : ${mail.text}`);
  return match[0];
}

export interface LogLine {
  level: 'info' | 'warn' | 'error';
  obj: object;
  msg: string;
}

/** A logger that keeps what the worker says, for assertions. */
export function memoryLogger() {
  const lines: LogLine[] = [];
  const at = (level: LogLine['level']) => (obj: object, msg: string) => void lines.push({ level, obj, msg });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

/** A delivery worker with test-sized delays: polls every 20 ms, retries after 30, 60, 120… ms. */
export function startTestWorker(
  { db, journal, calendar }: Pick<AppContext, 'db' | 'journal' | 'calendar'>,
  config: TransportConfig,
  options: Partial<Omit<MailWorkerOptions, 'db' | 'journal' | 'calendar' | 'config'>> = {},
): MailWorker {
  return startMailWorker({
    db,
    journal,
    calendar,
    config,
    log: memoryLogger(),
    pollMs: 20,
    maxIdleMs: 100,
    stopGraceMs: 500,
    ...options,
    policy: { retryBaseMs: 30, retryMaxMs: 150, maxAttempts: 50, ...options.policy },
  });
}

/** Every outbox row, oldest first. */
export async function outbox(db: Database) {
  return db.read.select().from(db.t.mailOutbox).orderBy(asc(db.t.mailOutbox.id));
}

export const LAST_MAIL_TO = 'dernier@example.mg';

/**
 * Lets the workers finish what they started, for the "never sent twice" assertions, without guessing a
 * delay: one more message is queued and waited for until it is marked sent (a worker went over the outbox
 * once more after the others were done), then every worker stops, which waits for a send in progress.
 * A second copy of a message has reached `smtp` by then. The last message goes to LAST_MAIL_TO.
 */
export async function settle(db: Database, smtp: TestSmtp, workers: MailWorker[]): Promise<void> {
  await enqueueMail(db, { kind: 'partner-notification', to: LAST_MAIL_TO, subject: 'Dernier', text: 'Fin' });
  await smtp.waitFor((m) => m.to === LAST_MAIL_TO);
  await vi.waitFor(
    async () => {
      const last = (await outbox(db)).filter((r) => r.to === LAST_MAIL_TO);
      if (last.length !== 1 || last[0]!.status !== 'sent')
        throw new Error(`dernier message : ${JSON.stringify(last)}`);
    },
    { timeout: 10_000, interval: 20 },
  );
  await Promise.all(workers.map((w) => w.stop()));
}
