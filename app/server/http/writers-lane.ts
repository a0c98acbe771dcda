// The HTTP side of the writers' lane (server/db/lanes.ts, docs/decisions/0054-writes-first.md): every
// method but GET and HEAD may write, and runs in the lane from its first hook (the session check) to its
// answer; the lane holds across the body's read (writers-lane.test.ts, over a real socket).
import type { FastifyInstance, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { inWritersLane } from '#server/db/lanes';

const READS = new Set(['GET', 'HEAD']);

function enter(request: FastifyRequest, _reply: unknown, done: HookHandlerDoneFunction): void {
  if (READS.has(request.method)) done();
  else inWritersLane(done);
}

export function registerWritersLane(app: FastifyInstance): void {
  app.addHook('onRequest', enter);
}
