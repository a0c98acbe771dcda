// Shutdown without dropping a request (decision 0019): on SIGTERM the listener stops accepting, every answer
// not yet begun says `Connection: close` (Node closes the connection after it), and a keep-alive
// connection is closed only once it has stayed idle for a grace period. Node's own `server.close()`
// destroys idle keep-alive connections at once, and an idle connection is exactly where a client may be
// sending its next request at that moment: it got a reset (1 to 7 of 8 busy connections in the tests).
// What remains is the race every HTTP/1.1 server has with keep-alive: a request sent at the very instant
// the grace ends; docs/decisions/0019-durability.md says what a proxy retries.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

interface Connection {
  /** Answers not yet ended (pipelined requests included). */
  answers: Set<ServerResponse>;
  /** Bytes read when the last answer ended: more since then means a request is arriving. */
  bytesAtIdle: number;
  /** When the connection last became idle (or when the drain began, if later). */
  idleSince: number;
  timer?: NodeJS.Timeout;
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

/** Tracks the server's connections; `drain()` stops accepting and resolves once none is left. */
export function trackConnections(server: Server, idleGraceMs: number): { drain(): Promise<void> } {
  const connections = new Map<Socket, Connection>();
  let draining = false;
  let drained: Promise<void> | undefined;
  let done: (() => void) | undefined;

  const closeWhenIdle = (socket: Socket, connection: Connection) => {
    clearTimeout(connection.timer);
    if (!draining || connection.answers.size > 0 || socket.destroyed) return;
    connection.timer = setTimeout(
      () => {
        if (connection.answers.size > 0 || socket.destroyed) return;
        if (socket.bytesRead !== connection.bytesAtIdle) {
          // The first bytes of a request are here: it is answered (with Connection: close) when whole.
          connection.bytesAtIdle = socket.bytesRead;
          connection.idleSince = Date.now();
          return closeWhenIdle(socket, connection);
        }
        socket.destroy();
      },
      Math.max(0, connection.idleSince + idleGraceMs - Date.now()),
    );
  };

  server.on('connection', (socket: Socket) => {
    const connection: Connection = { answers: new Set(), bytesAtIdle: 0, idleSince: Date.now() };
    connections.set(socket, connection);
    socket.once('close', () => {
      clearTimeout(connection.timer);
      connections.delete(socket);
      if (draining && connections.size === 0) done?.();
    });
  });
  // Before Fastify's own listener, which may answer at once (then the header can no longer be set).
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    const connection = connections.get(socket);
    if (!connection) return;
    connection.answers.add(response);
    clearTimeout(connection.timer);
    if (draining && !response.headersSent) response.setHeader('connection', 'close');
    response.once('close', () => {
      connection.answers.delete(response);
      connection.bytesAtIdle = socket.bytesRead;
      connection.idleSince = Date.now();
      closeWhenIdle(socket, connection);
    });
  });

  return {
    drain() {
      if (drained) return drained;
      draining = true;
      drained = new Promise<void>((resolve) => (done = resolve));
      // The listener only: http.Server#close would also destroy the idle connections at once.
      if (server.listening) NetServer.prototype.close.call(server);
      const now = Date.now();
      for (const [socket, connection] of connections) {
        for (const answer of connection.answers)
          if (!answer.headersSent) answer.setHeader('connection', 'close');
        connection.idleSince = Math.max(connection.idleSince, now);
        closeWhenIdle(socket, connection);
      }
      if (connections.size === 0) done!();
      return drained;
    },
  };
}

const drains = new WeakMap<FastifyInstance, { drain(): Promise<void> }>();

/**
 * Tracks the app's connections. A request already on a connection, or arriving on an idle one during the
 * grace, is answered in full, not with Fastify's English 503 (`return503OnClosing: false`).
 */
export function registerDrain(app: FastifyInstance, idleGraceMs: number) {
  const tracker = trackConnections(app.server, idleGraceMs);
  drains.set(app, tracker);
  // Also when app.close() is called without a drain first (tests).
  app.addHook('preClose', () => tracker.drain());
}

/**
 * Stops accepting connections and resolves once every one has closed between two requests (start.ts cuts
 * what is left at the schedule's `cutMs`). Runs before `app.close()`, whose hooks time out after
 * Fastify's pluginTimeout (10 s), shorter than a long export.
 */
export function drainConnections(app: FastifyInstance): Promise<void> {
  return drains.get(app)?.drain() ?? Promise.resolve();
}
