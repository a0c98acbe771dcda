// SIGTERM (decision 0019, "A rolling restart loses no answer"): the server stops accepting connections,
// answers the requests already on a connection and those sent on its idle keep-alive connections during a
// grace, closes each connection between two requests only, gives answers in progress (a long export) the
// budget, cuts what is left just before SHUTDOWN_TIMEOUT_SECONDS runs out, and exits with code 0. The real
// entry point runs in a child process, as `npm start` does (docs/decisions/0019-durability.md).
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testEngines, type TestDatabase } from '#tests/helpers/db';
import { spawnServer, waitHealthy } from '#tests/helpers/server-process';
import { download, keepAliveClient } from '#tests/helpers/shutdown-clients';
import { formatDataKey } from './crypto/cipher';
import { seedDemo } from './db/seed/demo';
import { createUser } from './domains/utilisateurs/service';

interface Child {
  process: ChildProcess;
  port: number;
  output(): string;
  exited: Promise<number | null>;
}

async function startServer(dir: string, extra: Record<string, string> = {}): Promise<Child> {
  // The server as `npm start` runs it (the run's bundle): from the sources, through tsx, each start and each
  // thread it starts compiled and loaded drizzle-orm again.
  const server = await spawnServer({
    DATABASE_URL: `file:${join(dir, 'db.sqlite')}`,
    LOG_LEVEL: 'info',
    ...extra,
  });
  const exited = new Promise<number | null>((done) => server.child.on('exit', (code) => done(code)));
  await waitHealthy(server, 60_000);
  return { process: server.child, port: Number(new URL(server.base).port), output: server.output, exited };
}

/** A raw connection: what it received, and whether the server closed it. */
function rawConnection(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((done) => socket.on('close', () => done()));
  return { socket, received: () => received, closed };
}

const LOGIN_BODY = JSON.stringify({ email: 'personne@example.mg', password: 'pas-le-bon-mot-de-passe' });

function partialLogin(port: number) {
  const conn = rawConnection(port);
  conn.socket.write(
    `POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(LOGIN_BODY)}\r\n\r\n` +
      LOGIN_BODY.slice(0, 10),
  );
  return conn;
}

describe('SIGTERM', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'signalements-shutdown-'));
    dirs.push(dir);
    return dir;
  };

  it('answers the request in flight and one sent on an idle keep-alive connection, each saying Connection: close, refuses new connections and exits 0', async () => {
    const server = await startServer(tempDir());
    children.push(server.process);

    // A request whose body is still arriving when the signal comes.
    const inFlight = partialLogin(server.port);
    await new Promise<void>((done) => inFlight.socket.once('connect', () => done()));

    // A keep-alive client that made one request and keeps its connection open. Its request was sent after
    // the other's headers: by the time it is answered, the server has read those headers (the request is
    // in progress, not an idle connection).
    const idle = rawConnection(server.port);
    idle.socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    await expect.poll(() => idle.received()).toContain('"status":"ok"');
    await expect.poll(() => server.output()).toContain('"url":"/api/health"');

    // Another keep-alive client that stays silent after its answer.
    const silent = rawConnection(server.port);
    silent.socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    await expect.poll(() => silent.received()).toContain('"status":');

    server.process.kill('SIGTERM');
    await expect.poll(() => server.output()).toContain('arrêt en cours');

    // A request sent on the connection that was idle when the signal came is answered, and the answer
    // says the connection closes (it used to be reset); then the server closes it.
    const before = idle.received().length;
    idle.socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    await idle.closed;
    const second = idle.received().slice(before);
    expect(second).toMatch(/^HTTP\/1\.1 \d{3} /);
    expect(second.toLowerCase()).toContain('connection: close');
    expect(second).toMatch(/"status":/);
    // No new connection is accepted.
    // (A new TCP connection: fetch would reuse its own idle keep-alive connection, which is answered.)
    const refused = await new Promise<string | undefined>((done) => {
      const socket = connect(server.port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        done(undefined);
      });
      socket.once('error', (error: NodeJS.ErrnoException) => done(error.code));
    });
    expect(refused).toBe('ECONNREFUSED');

    // The request in flight is answered in full (a wrong password: 401 and its French message), then
    // its connection is closed.
    inFlight.socket.write(LOGIN_BODY.slice(10));
    await inFlight.closed;
    expect(inFlight.received()).toMatch(/^HTTP\/1\.1 401 /);
    expect(inFlight.received().toLowerCase()).toContain('connection: close');
    expect(inFlight.received()).toContain('Email ou mot de passe incorrect.');

    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('"msg":"arrêté"');
    // The silent connection was closed by the server after its grace, not cut at the end of the budget.
    await silent.closed;
    expect(silent.received().match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(server.output()).not.toContain('connexions encore ouvertes coupées');
  });

  it('answers every request sent on keep-alive connections across the signal, each connection closed after an answer saying so', async () => {
    const server = await startServer(tempDir());
    children.push(server.process);
    // Some send their next request at once, others a few milliseconds later: at the signal, some
    // connections are idle, between two requests.
    const clients = Array.from({ length: 8 }, (_, i) => keepAliveClient(server.port, i % 4));
    await expect
      .poll(() => Math.min(...clients.map((c) => c.state.answered)), { timeout: 20_000 })
      .toBeGreaterThan(20);

    server.process.kill('SIGTERM');
    await Promise.all(clients.map((c) => c.closed));
    expect(await server.exited).toBe(0);

    const states = clients.map((c) => c.state);
    // No request written on an open connection went unanswered, and no connection ended unannounced.
    expect(states.map((s) => s.lost)).toEqual(clients.map(() => 0));
    expect(states.map((s) => s.unannounced)).toEqual(clients.map(() => 0));
    expect(states.map((s) => s.announcedClose)).toEqual(clients.map(() => true));
  });

  it('cuts a client that never finishes its request when SHUTDOWN_TIMEOUT_SECONDS runs out, and exits 0', async () => {
    const server = await startServer(tempDir(), { SHUTDOWN_TIMEOUT_SECONDS: '2' });
    children.push(server.process);
    const stuck = partialLogin(server.port);
    // Without the cut, Node's request timeout (300 s) and Fastify's keep-alive (72 s) would hold the
    // process far beyond this test's own time limit.
    await new Promise((done) => setTimeout(done, 200));
    server.process.kill('SIGTERM');
    await stuck.closed;
    expect(await server.exited).toBe(0);
    expect(stuck.received()).toBe('');
    expect(server.output()).toContain('connexions encore ouvertes coupées');
  });

  it('refuses a shutdown budget that is not a whole number of seconds between 1 and 600', async () => {
    const { loadConfig } = await import('./config');
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: '0' })).toThrow(
      'SHUTDOWN_TIMEOUT_SECONDS: au moins 1',
    );
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: 'dix' })).toThrow(
      'SHUTDOWN_TIMEOUT_SECONDS: doit être un nombre',
    );
    expect(loadConfig({}).SHUTDOWN_TIMEOUT_SECONDS).toBe(10);
  });
});

// Long downloads across a restart (decision 0019): an export in progress at SIGTERM gets the whole budget but
// the closing reserve (it was cut at 60 % of it); one that cannot finish by then is cut so the client can
// tell (a chunked body without its last chunk), never ended as if it were whole.
describe.each(await testEngines())('SIGTERM during xlsx exports on %s', (engine) => {
  const AGENT = { email: 'agent.export@example.mg', password: 'Fanilo-mahery-4821-ambony!' };
  const REPORTS = 900;
  const BUDGET_SECONDS = 20;
  let database: TestDatabase | undefined;
  let child: ChildProcess | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('sends an export that ends within the budget whole, and cuts one that cannot so that it is seen incomplete', async () => {
    database = await createTestDatabase(engine);
    await seedDemo(database.ctx, { reports: REPORTS, seed: 21 });
    // Descriptions of random text (hardly compressible): each export is several times what the kernel's
    // socket buffers hold, so a client that does not read holds the server's writing.
    const { signalements } = database.db.t;
    const rows = await database.db.read.select({ id: signalements.id }).from(signalements);
    await database.db.transaction(async (tx) => {
      for (const { id } of rows) {
        await tx
          .update(signalements)
          .set({ description: randomBytes(11_250).toString('base64') })
          .where(eq(signalements.id, id));
      }
    });
    await createUser(database.db, {
      email: AGENT.email,
      nomPrenom: 'Agent Export',
      roleCode: 'ROLE_USER',
      password: AGENT.password,
    });
    dir = mkdtempSync(join(tmpdir(), 'signalements-shutdown-'));
    const server = await startServer(dir, {
      DATABASE_URL: database.url,
      DATA_KEY: formatDataKey(database.dataKey),
      SHUTDOWN_TIMEOUT_SECONDS: String(BUDGET_SECONDS),
    });
    child = server.process;
    const login = await fetch(`http://127.0.0.1:${server.port}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(AGENT),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;

    const path = '/api/signalements/export/xlsx';
    const whole = await download(server.port, path, { cookie });
    const held = await download(server.port, path, { cookie });
    expect([whole.status, held.status]).toEqual([200, 200]);
    expect(whole.headers['x-total-count']).toBe(String(REPORTS));

    server.process.kill('SIGTERM');
    await expect.poll(() => server.output()).toContain('arrêt en cours');
    // Read nothing until past the point where the export used to be cut (60 % of the budget).
    await new Promise((done) => setTimeout(done, BUDGET_SECONDS * 650));
    whole.resume();
    const first = await whole.finished;
    expect(first.error).toBeUndefined();
    expect(first.complete).toBe(true);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(first.body as unknown as ArrayBuffer);
    expect(workbook.getWorksheet('Signalements')!.actualRowCount).toBe(REPORTS + 1);

    // The other client reads only once the process has gone: its export was cut at the end of the budget.
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('connexions encore ouvertes coupées');
    held.resume();
    const second = await held.finished;
    expect(held.headers['transfer-encoding']).toBe('chunked');
    expect(second.complete).toBe(false);
    expect(second.error).toBe('ECONNRESET');
    expect(second.body.length).toBeLessThan(first.body.length);
  }, 120_000);
});
