// Shutdown without dropping a request (issue #21): on SIGTERM the listener stops accepting, every answer
// from then on says `Connection: close` (and the connection is closed after it), and a keep-alive
// connection is closed only once it has stayed idle for a grace period. Node's own `server.close()`
// destroys idle keep-alive connections at once, and an idle connection is exactly where a client may be
// sending its next request at that moment: it got a reset (1 to 5 of 8 busy connections in the tests).
// What remains is the race every HTTP/1.1 server has with keep-alive: a request sent at the very instant
// the grace ends; docs/decisions/0019-durability.md says what a proxy retries.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

interface Connection {
  /** Requests received and not yet answered (pipelined ones included). */
  busy: number;
  /** Bytes read when the last answer ended: more since means a request is arriving. */
  bytesAtIdle: number;
  /** When the connection last became idle (or when the drain began, if later). */
  idleSince: number;
  timer?: NodeJS.Timeout;
}

export interface Drain {
  /** Stops accepting, then resolves once every connection has closed between two requests. */
  drain(): Promise<void>;
}

/** Tracks the server's connections from now on; `idleGraceMs`: how long an idle one stays open in a drain. */
export function trackConnections(server: Server, idleGraceMs: number): Drain {
  const connections = new Map<Socket, Connection>();
  let draining = false;
  let drained: (() => void) | undefined;

  const closeWhenIdle = (socket: Socket, connection: Connection) => {
    clearTimeout(connection.timer);
    if (!draining || connection.busy > 0 || socket.destroyed) return;
    const wait = connection.idleSince + idleGraceMs - Date.now();
    connection.timer = setTimeout(() => {
      if (connection.busy > 0 || socket.destroyed) return;
      if (socket.bytesRead !== connection.bytesAtIdle) {
        // The first bytes of a request are here: it is answered (with Connection: close) when whole.
        connection.bytesAtIdle = socket.bytesRead;
        connection.idleSince = Date.now();
        return closeWhenIdle(socket, connection);
      }
      socket.destroy();
    }, Math.max(0, wait));
    connection.timer.unref();
  };

  server.on('connection', (socket: Socket) => {
    const connection: Connection = { busy: 0, bytesAtIdle: 0, idleSince: Date.now() };
    connections.set(socket, connection);
    socket.once('close', () => {
      clearTimeout(connection.timer);
      connections.delete(socket);
      if (draining && connections.size === 0) drained?.();
    });
    closeWhenIdle(socket, connection);
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    const connection = connections.get(socket);
    if (!connection) return;
    connection.busy++;
    clearTimeout(connection.timer);
    response.once('close', () => {
      connection.busy--;
      connection.bytesAtIdle = socket.bytesRead;
      connection.idleSince = Date.now();
      closeWhenIdle(socket, connection);
    });
  });

  return {
    drain() {
      if (draining) return Promise.resolve();
      draining = true;
      // The listener only: http.Server#close would also destroy the idle connections at once.
      if (server.listening) NetServer.prototype.close.call(server);
      const now = Date.now();
      for (const [socket, connection] of connections) {
        connection.idleSince = Math.max(connection.idleSince, now);
        closeWhenIdle(socket, connection);
      }
      if (connections.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => (drained = resolve));
    },
  };
}

/**
 * The shutdown's schedule within SHUTDOWN_TIMEOUT_SECONDS: an idle keep-alive connection stays open for
 * `idleGraceMs` (a client between two requests sends its next one and gets the answer, saying
 * `Connection: close`); answers in progress (an export) get until `cutMs`, then what is left is cut; the
 * rest of the budget closes the threads and the database.
 */
export function shutdownSchedule(budgetSeconds: number): { idleGraceMs: number; cutMs: number } {
  const budgetMs = budgetSeconds * 1000;
  return { idleGraceMs: Math.min(1000, budgetMs / 10), cutMs: budgetMs - Math.min(2000, budgetMs / 5) };
}

/**
 * Once the server is closing, a request already on a connection (or arriving on an idle one during the
 * grace) is answered in full, not with Fastify's English 503 (`return503OnClosing: false`), and its answer
 * closes its connection. `app.close()` resolves when no connection is left; start.ts cuts what is left
 * at the schedule's `cutMs`.
 */
export function registerDrain(app: FastifyInstance, idleGraceMs: number) {
  let closing = false;
  const tracker = trackConnections(app.server, idleGraceMs);
  app.addHook('preClose', async () => {
    closing = true;
    await tracker.drain();
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
}
