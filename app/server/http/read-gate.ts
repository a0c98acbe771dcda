// Reads are admitted to the serving thread a few at a time, and one at a time while a write is being
// handled; writes never wait for a place (docs/decisions/0056-reads-admitted.md). Under fifty connections of
// lists, each statement of a create waited for a core behind the reads' statements and answers (PostgreSQL's
// processes and the serving thread share the machine's cores): its p99 was several times its p50. A read
// beyond the limit waits here, before its session check, costing nothing but its place in line, first come
// first served; it holds its place until its answer is handed to the socket (`onSend`: a download streams
// without holding one) or its connection closes. A write counts from its handler's turn (its body read),
// so a slow upload or a slow client never holds the reads back, and only a signed-in caller's.
import { availableParallelism } from 'node:os';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** One per core and as many more, at least four (decision 0056). */
export const DEFAULT_READS_AT_ONCE = Math.max(4, 2 * availableParallelism());

const READS = new Set(['GET', 'HEAD']);

/** A read's place: `admitted` resolves once it may run (true) or once it was given up in line (false). */
export interface ReadTicket {
  readonly admitted: Promise<boolean>;
  /** Frees the place, or leaves the line; idempotent. */
  release(): void;
}

/**
 * At most `limit` reads run at once, and at most `whileWriting` while a write is being handled (those
 * already running finish); the others wait in arrival order. Reads never stop altogether: a flood of
 * writes leaves them `whileWriting` places. A `limit` of 0 is no gate (READS_AT_ONCE=0).
 */
export class ReadGate {
  private active = 0;
  private writes = 0;
  private readonly line: Array<(admitted: boolean) => void> = [];

  constructor(
    readonly limit: number,
    readonly whileWriting = 1,
  ) {
    if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`ReadGate: limit ${limit}`);
    if (!Number.isInteger(whileWriting) || whileWriting < 1)
      throw new RangeError(`ReadGate: whileWriting ${whileWriting}`);
  }

  /** Places for reads now; a limit of 0 holds nothing back. */
  private get places(): number {
    if (this.limit === 0) return Infinity;
    return this.writes > 0 ? Math.min(this.whileWriting, this.limit) : this.limit;
  }

  /** Admits waiting reads while there are places. */
  private admitWaiting(): void {
    while (this.line.length > 0 && this.active < this.places) {
      this.active += 1;
      this.line.shift()!(true);
    }
  }

  /** Writes being handled now. */
  get writing(): number {
    return this.writes;
  }

  /** A write is being handled until the returned function is called (idempotent). */
  write(): () => void {
    this.writes += 1;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.writes -= 1;
      this.admitWaiting();
    };
  }

  /** Reads running now. */
  get running(): number {
    return this.active;
  }

  /** Reads waiting for a place. */
  get waiting(): number {
    return this.line.length;
  }

  enter(): ReadTicket {
    let state: 'waiting' | 'running' | 'done' = 'waiting';
    let admit!: (admitted: boolean) => void;
    const admitted = new Promise<boolean>((resolve) => {
      admit = (ok) => {
        if (ok) state = 'running';
        resolve(ok);
      };
    });
    if (this.active < this.places && this.line.length === 0) {
      this.active += 1;
      admit(true);
    } else {
      this.line.push(admit);
    }
    return {
      admitted,
      release: () => {
        if (state === 'done') return;
        if (state === 'waiting') {
          this.line.splice(this.line.indexOf(admit), 1);
          state = 'done';
          admit(false);
          return;
        }
        state = 'done';
        this.active -= 1;
        this.admitWaiting();
      },
    };
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The read's place in the read gate (read-gate.ts), when it took one. */
    readTicket: ReadTicket | null;
    /** Ends the write's count in the read gate (read-gate.ts), when it is counted. */
    writeDone: (() => void) | null;
  }
  interface FastifyInstance {
    /** The gate the server's reads pass (read-gate.ts). */
    readGate: ReadGate;
  }
}

/** Routes answered at once whatever the load: the client's files, health and metrics. */
function exempt(request: FastifyRequest): boolean {
  const config = request.routeOptions.config;
  return config.clientFile === true || config.unqueued === true;
}

async function enter(this: ReadGate, request: FastifyRequest, reply: FastifyReply) {
  if (!READS.has(request.method) || exempt(request)) return;
  const ticket = this.enter();
  request.readTicket = ticket;
  // Closed before its answer (the client gave up, a time-out): the place is freed, or the line left.
  reply.raw.once('close', ticket.release);
  if (!(await ticket.admitted)) {
    // Nobody is listening any more: the request stops here, without its session check or its work.
    reply.hijack();
    return reply;
  }
}

/**
 * Registers the gate's hooks: before any other hook that costs (session check, body). `signedIn` tells a
 * write that counts: a caller who passed the perimeter (decision 0056), so that nobody without an account
 * (a flood of log-in attempts) can hold the reads back.
 */
export function registerReadGate(
  app: FastifyInstance,
  gate: ReadGate,
  signedIn: (request: FastifyRequest) => boolean,
): void {
  app.decorate('readGate', gate);
  app.decorateRequest('readTicket', null);
  app.decorateRequest('writeDone', null);
  app.addHook('onRequest', enter.bind(gate));
  // A write counts once its body is read (a file upload streams its body in the handler: never counted).
  app.addHook('preHandler', (request, reply, done) => {
    if (!READS.has(request.method) && request.routeOptions.config.binaryBody !== true && signedIn(request)) {
      const writeDone = gate.write();
      request.writeDone = writeDone;
      reply.raw.once('close', writeDone);
    }
    done();
  });
  app.addHook('onSend', (request, _reply, payload, done) => {
    request.readTicket?.release();
    request.writeDone?.();
    done(null, payload);
  });
}
