// Reads beyond READS_AT_ONCE wait in line before any work; writes, health and the client's files never wait;
// a place is freed when the answer is handed over (a stream keeps none), on an error, and when the client
// leaves, in line or not (read-gate.ts, decision 0056). Over a real socket, as a server is reached.
import Fastify, { type FastifyInstance } from 'fastify';
import { request } from 'node:http';
import { PassThrough, Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '#server/config';
import { createTestApp } from '#tests/helpers/app';
import { createReport } from '#tests/helpers/signalements';
import { DEFAULT_READS_AT_ONCE, ReadGate, registerReadGate } from './read-gate';

describe('ReadGate', () => {
  it('admits up to its limit, then first come first served; a place leaves the line or frees once', async () => {
    const gate = new ReadGate(2);
    const [a, b, c, d] = [gate.enter(), gate.enter(), gate.enter(), gate.enter()];
    expect(await a.admitted).toBe(true);
    expect(await b.admitted).toBe(true);
    expect([gate.running, gate.waiting]).toEqual([2, 2]);
    const order: string[] = [];
    void c.admitted.then((ok) => order.push(`c ${ok}`));
    void d.admitted.then((ok) => order.push(`d ${ok}`));
    a.release();
    a.release();
    await vi.waitFor(() => expect(order).toEqual(['c true']));
    expect([gate.running, gate.waiting]).toEqual([2, 1]);
    // Leaving the line frees nothing: d had no place.
    d.release();
    await vi.waitFor(() => expect(order).toEqual(['c true', 'd false']));
    expect([gate.running, gate.waiting]).toEqual([2, 0]);
    b.release();
    c.release();
    c.release();
    expect([gate.running, gate.waiting]).toEqual([0, 0]);
    expect(await gate.enter().admitted).toBe(true);
  });

  it('admits one read at a time while a write is handled, and the line up to its limit once none is', async () => {
    const gate = new ReadGate(3);
    const running = gate.enter();
    const writeDone = gate.write();
    const otherWriteDone = gate.write();
    const [a, b, c] = [gate.enter(), gate.enter(), gate.enter()];
    const admitted: string[] = [];
    for (const [name, ticket] of [
      ['a', a],
      ['b', b],
      ['c', c],
    ] as const)
      void ticket.admitted.then(() => admitted.push(name));
    expect([gate.running, gate.waiting, gate.writing]).toEqual([1, 3, 2]);
    // The read that was running ends: its place goes to the line's first, one at a time.
    running.release();
    await vi.waitFor(() => expect(admitted).toEqual(['a']));
    writeDone();
    writeDone();
    expect([gate.running, gate.waiting, gate.writing]).toEqual([1, 2, 1]);
    otherWriteDone();
    await vi.waitFor(() => expect(admitted).toEqual(['a', 'b', 'c']));
    expect([gate.running, gate.waiting, gate.writing]).toEqual([3, 0, 0]);
  });

  it('holds nothing back with a limit of 0; refuses a limit that is not a whole number', async () => {
    const open = new ReadGate(0);
    const done = open.write();
    const tickets = Array.from({ length: 50 }, () => open.enter());
    expect(await Promise.all(tickets.map((t) => t.admitted))).toEqual(tickets.map(() => true));
    done();
    expect(() => new ReadGate(-1)).toThrow(RangeError);
    expect(() => new ReadGate(1.5)).toThrow(RangeError);
    expect(() => new ReadGate(2, 0)).toThrow(RangeError);
  });
});

describe('the read gate of a server', () => {
  let app: FastifyInstance;
  afterEach(async () => {
    // A failed test may leave a request open: it must not hold the server's close.
    app?.server.closeAllConnections();
    await app?.close();
  });

  /** A server whose reads go `limit` at a time; `/held` and `/held-write` answer when `open()` is called. */
  async function server(limit = 1) {
    app = Fastify();
    const gate = new ReadGate(limit);
    // Signed in, for this server: a header (the application's rule is a session or a token, app.ts).
    registerReadGate(app, gate, (request) => request.headers['x-connecte'] === 'oui');
    /** Reads that passed the gate's hook into the next one (where the session check would be). */
    const checked: string[] = [];
    app.addHook('onRequest', async (request) => {
      checked.push(`${request.method} ${request.url}`);
    });
    const waiting: Array<() => void> = [];
    const open = () => waiting.splice(0).forEach((resolve) => resolve());
    app.get('/held', async () => {
      await new Promise<void>((resolve) => waiting.push(resolve));
      return { ok: true };
    });
    app.get('/read', async () => ({ ok: true }));
    app.get('/fails', async () => {
      throw new Error('échec voulu');
    });
    const stream = new PassThrough();
    app.get('/stream', async (_request, reply) => reply.type('text/plain').send(stream));
    app.post('/write', async () => ({ ok: true }));
    app.post('/held-write', async () => {
      await new Promise<void>((resolve) => waiting.push(resolve));
      return { ok: true };
    });
    // As an evidence upload: the handler reads the body's stream itself.
    app.addContentTypeParser('application/octet-stream', (_request, _payload, done) => done(null));
    app.post('/upload', { config: { binaryBody: true } }, async (request) => {
      for await (const chunk of request.raw) void chunk;
      return { ok: true };
    });
    app.get('/health', { config: { unqueued: true } }, async () => ({ ok: true }));
    app.get('/client.js', { config: { clientFile: true } }, async () => 'ok');
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });
    return { gate, checked, open, origin, stream };
  }

  it('keeps a read beyond the limit out of every later hook, while writes, health and files pass', async () => {
    const { gate, checked, open, origin } = await server();
    const held = fetch(`${origin}/held`);
    await vi.waitFor(() => expect(checked).toEqual(['GET /held']));
    const read = fetch(`${origin}/read`);
    await vi.waitFor(() => expect(gate.waiting).toBe(1));
    for (const [method, path] of [
      ['POST', '/write'],
      ['GET', '/health'],
      ['HEAD', '/health'],
      ['GET', '/client.js'],
    ] as const) {
      expect((await fetch(`${origin}${path}`, { method })).status).toBe(200);
    }
    // The queued read never reached the next hook while it waited.
    expect(checked).not.toContain('GET /read');
    expect(gate.waiting).toBe(1);
    open();
    expect((await held).status).toBe(200);
    expect((await read).status).toBe(200);
    expect(checked).toContain('GET /read');
    expect([gate.running, gate.waiting]).toEqual([0, 0]);
  });

  it('admits one read at a time while a signed-in caller’s write is handled, not while its body or an upload arrives', async () => {
    const { gate, checked, open, origin } = await server(2);
    // A JSON body still arriving, and an upload streaming: neither counts as a write being handled.
    const slow = request(`${origin}/write`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '7', 'x-connecte': 'oui' },
    });
    const slowAnswer = new Promise<number>((resolve) => slow.on('response', (r) => resolve(r.statusCode!)));
    slow.write('{"a":');
    const upload = new PassThrough();
    const uploaded = fetch(`${origin}/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'x-connecte': 'oui' },
      body: Readable.toWeb(upload) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    upload.write('x'.repeat(1000));
    await vi.waitFor(() => expect(checked).toContain('POST /upload'));
    const [one, two] = [fetch(`${origin}/held`), fetch(`${origin}/held`)];
    await vi.waitFor(() => expect(gate.running).toBe(2));
    expect(gate.writing).toBe(0);
    open();
    await Promise.all([one, two]);
    // A write of somebody not signed in, in its handler: it does not count.
    const anonymous = fetch(`${origin}/held-write`, { method: 'POST' });
    await vi.waitFor(() => expect(checked.filter((c) => c === 'POST /held-write')).toHaveLength(1));
    const [three, four] = [fetch(`${origin}/held`), fetch(`${origin}/held`)];
    await vi.waitFor(() => expect(gate.running).toBe(2));
    expect(gate.writing).toBe(0);
    open();
    await Promise.all([anonymous, three, four]);
    // A signed-in caller's write in its handler: one read at a time.
    const write = fetch(`${origin}/held-write`, { method: 'POST', headers: { 'x-connecte': 'oui' } });
    await vi.waitFor(() => expect(gate.writing).toBe(1));
    const held = fetch(`${origin}/held`);
    await vi.waitFor(() => expect(gate.running).toBe(1));
    const read = fetch(`${origin}/read`);
    await vi.waitFor(() => expect(gate.waiting).toBe(1));
    open();
    expect((await write).status).toBe(200);
    expect((await held).status).toBe(200);
    expect((await read).status).toBe(200);
    expect([gate.running, gate.waiting, gate.writing]).toEqual([0, 0, 0]);
    slow.end('1}');
    expect(await slowAnswer).toBe(200);
    upload.end();
    expect((await uploaded).status).toBe(200);
    expect(gate.writing).toBe(0);
  });

  it('frees the place when an answer is handed over as a stream, before the stream ends', async () => {
    const { gate, origin, stream } = await server();
    // Its first bytes are sent (the status line leaves with them); the rest is still to come.
    stream.write('début, ');
    const response = await fetch(`${origin}/stream`);
    expect(response.status).toBe(200);
    // The download is still open; another read runs.
    expect((await fetch(`${origin}/read`)).status).toBe(200);
    expect(gate.running).toBe(0);
    stream.end('fin');
    expect(await response.text()).toBe('début, fin');
  });

  it('frees the place of a read that failed', async () => {
    const { gate, origin } = await server();
    expect((await fetch(`${origin}/fails`)).status).toBe(500);
    expect((await fetch(`${origin}/read`)).status).toBe(200);
    expect([gate.running, gate.waiting]).toEqual([0, 0]);
  });

  it('takes a client that leaves out of the line, and frees the place of one that leaves while served', async () => {
    const { gate, checked, open, origin } = await server();
    const leavesServed = new AbortController();
    const served = fetch(`${origin}/held`, { signal: leavesServed.signal }).catch((e: Error) => e.name);
    await vi.waitFor(() => expect(gate.running).toBe(1));
    const leavesLine = new AbortController();
    const inLine = fetch(`${origin}/read`, { signal: leavesLine.signal }).catch((e: Error) => e.name);
    await vi.waitFor(() => expect(gate.waiting).toBe(1));
    leavesLine.abort();
    expect(await inLine).toBe('AbortError');
    await vi.waitFor(() => expect(gate.waiting).toBe(0));
    expect(checked).toEqual(['GET /held']);
    leavesServed.abort();
    expect(await served).toBe('AbortError');
    await vi.waitFor(() => expect(gate.running).toBe(0));
    // The place is back: the next read is served at once, and the abandoned handler ends harmlessly.
    expect((await fetch(`${origin}/read`)).status).toBe(200);
    open();
  });
});

describe('READS_AT_ONCE', () => {
  it('is read from the configuration: unset or empty, the default; 0 (no limit) to 1000; otherwise a French message', () => {
    expect(loadConfig({}).READS_AT_ONCE).toBeUndefined();
    expect(loadConfig({ READS_AT_ONCE: ' ' }).READS_AT_ONCE).toBeUndefined();
    expect(loadConfig({ READS_AT_ONCE: '12' }).READS_AT_ONCE).toBe(12);
    expect(loadConfig({ READS_AT_ONCE: '0' }).READS_AT_ONCE).toBe(0);
    expect(() => loadConfig({ READS_AT_ONCE: '-1' })).toThrow('READS_AT_ONCE: au moins 0');
    expect(() => loadConfig({ READS_AT_ONCE: '1001' })).toThrow('READS_AT_ONCE: au plus 1000');
    expect(() => loadConfig({ READS_AT_ONCE: 'quatre' })).toThrow('READS_AT_ONCE: doit être un nombre');
    expect(DEFAULT_READS_AT_ONCE).toBeGreaterThanOrEqual(4);
  });

  it('counts the writes of a signed-in caller, not a log-in', async () => {
    const t = await createTestApp('sqlite');
    try {
      // An administrator: the second factor is owed, its steps are POSTs of a session not yet past it.
      await t.user('lecture@example.mg', 'ROLE_ADMIN', 'Admin Lecture');
      const write = vi.spyOn(t.app.readGate, 'write');
      const cookie = await t.login('lecture@example.mg');
      // The log-in's steps (password, second factor) are writes of nobody signed in yet.
      expect(write).not.toHaveBeenCalled();
      await createReport(t, cookie);
      expect(write).toHaveBeenCalledTimes(1);
      expect(t.app.readGate.writing).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('sets the server’s gate', async () => {
    const t = await createTestApp('sqlite', { READS_AT_ONCE: '3' });
    try {
      expect(t.app.readGate.limit).toBe(3);
    } finally {
      await t.close();
    }
    const byDefault = await createTestApp('sqlite');
    try {
      expect(byDefault.app.readGate.limit).toBe(DEFAULT_READS_AT_ONCE);
    } finally {
      await byDefault.close();
    }
  });
});
