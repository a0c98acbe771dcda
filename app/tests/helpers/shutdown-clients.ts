// Clients of the shutdown tests (server/shutdown.test.ts), on raw sockets so that what the server sends,
// and when it closes, is seen as it is: a keep-alive client that never pauses, and a download the test
// reads at its own pace.
import { request, type IncomingHttpHeaders } from 'node:http';
import { connect, type Socket } from 'node:net';

/**
 * A keep-alive client that sends GET /api/health on its own socket again `pauseMs` after each answer is
 * whole (a browser or a proxy between two requests: the connection is idle meanwhile), until the server
 * closes the socket. A request written and never answered is `lost` (a reset, or an end
 * without the answer); a close that no `Connection: close` announced is `unannounced`.
 */
export function keepAliveClient(port: number, pauseMs = 0) {
  const socket: Socket = connect(port, '127.0.0.1');
  const state = { answered: 0, announcedClose: false, lost: 0, unannounced: 0, errors: [] as string[] };
  let pending = false;
  let buffer = Buffer.alloc(0);
  const send = () => {
    pending = true;
    socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
  };
  socket.on('connect', send);
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffer.subarray(0, end).toString('latin1').toLowerCase();
      const length = Number(/\r\ncontent-length: *(\d+)/.exec(head)?.[1] ?? 'NaN');
      if (Number.isNaN(length)) throw new Error(`réponse sans Content-Length : ${head}`);
      if (buffer.length < end + 4 + length) return;
      buffer = buffer.subarray(end + 4 + length);
      pending = false;
      state.answered++;
      if (/\r\nconnection: *close/.test(head)) state.announcedClose = true;
      else setTimeout(send, pauseMs);
    }
  });
  socket.on('error', (error: NodeJS.ErrnoException) => state.errors.push(error.code ?? error.message));
  const closed = new Promise<void>((done) =>
    socket.on('close', () => {
      if (pending) state.lost++;
      else if (!state.announcedClose) state.unannounced++;
      done();
    }),
  );
  return { state, closed };
}

export interface Download {
  status: number;
  headers: IncomingHttpHeaders;
  /** Bytes received so far. */
  received(): number;
  /** Starts (again) reading what the server sends. */
  resume(): void;
  /** The body once the response ends or breaks off; `complete` is Node's: the message's framing was whole. */
  finished: Promise<{ body: Buffer; complete: boolean; error?: string }>;
}

/**
 * A GET on a connection of its own whose body the test reads only when it calls resume(): until then the
 * server's writes wait for the socket (once the kernel's buffers are full), as with a slow client.
 * Resolves once the headers are here (a chunked answer sends them with its first bytes).
 */
export function download(port: number, path: string, headers: Record<string, string>): Promise<Download> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let error: string | undefined;
      const finished = new Promise<{ body: Buffer; complete: boolean; error?: string }>((done) => {
        res.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
        res.on('close', () =>
          done({ body: Buffer.concat(chunks), complete: res.complete, ...(error ? { error } : {}) }),
        );
      });
      // Paused first: a 'data' listener added to a paused stream leaves it paused.
      res.pause();
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        received: () => size,
        resume: () => res.resume(),
        finished,
      });
    });
    req.on('error', reject);
    req.end();
  });
}
