// Every method but GET and HEAD (Fastify answers HEAD with the GET route's handler) runs in the writers' lane (writers-lane.ts, decision 0054), from the
// first hooks (the session check) to the handler, after the body was read from its stream.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { isWritersLane } from '#server/db/lanes';
import { registerWritersLane } from './writers-lane';

describe('the writers’ lane of a request', () => {
  it('holds for writes from the first hook to the handler, and never for reads', async () => {
    const app = Fastify();
    registerWritersLane(app);
    const seen: Array<[string, string, boolean]> = [];
    app.addHook('onRequest', async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      seen.push([request.method, 'session', isWritersLane()]);
    });
    const handler = async (request: { method: string }) => {
      await new Promise((resolve) => setImmediate(resolve));
      seen.push([request.method, 'handler', isWritersLane()]);
      return { ok: true };
    };
    app.route({ method: ['GET', 'POST', 'PATCH', 'DELETE'], url: '/x', handler });
    // Over a real socket: the body arrives in the stream's own events, after the first hooks.
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });
    for (const method of ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'] as const) {
      const body =
        method === 'POST' || method === 'PATCH' ? JSON.stringify({ big: 'x'.repeat(200_000) }) : undefined;
      const response = await fetch(`${origin}/x`, {
        method,
        ...(body ? { body, headers: { 'content-type': 'application/json' } } : {}),
      });
      expect(response.status).toBe(200);
    }
    expect(isWritersLane()).toBe(false);
    await app.close();
    const writes = ['POST', 'PATCH', 'DELETE'];
    for (const [method, where, writer] of seen) {
      expect({ method, where, writer }).toEqual({ method, where, writer: writes.includes(method) });
    }
    expect(seen.filter(([, where]) => where === 'handler')).toHaveLength(5);
  });
});
