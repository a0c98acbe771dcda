// The REST error handler tells the database's lost connection (503, may be retried) from a request whose
// own socket failed (the client cut its body off: Fastify's 400 « aborted » with ECONNRESET), which is the
// client's doing: answered as Fastify's 4xx in French, and never logged as the database being unreachable.
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../errors';
import { registerErrorHandler } from './errors';

describe('REST error handler and lost connections', () => {
  const lines: string[] = [];
  const app = Fastify({
    logger: {
      level: 'info',
      stream: new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    },
  });
  beforeAll(async () => {
    registerErrorHandler(app);
    app.get('/client-cut', () => {
      throw Object.assign(new Error('aborted'), { code: 'ECONNRESET', statusCode: 400 });
    });
    app.get('/database-lost', () => {
      throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    });
    await app.ready();
  });
  afterAll(async () => app.close());

  it('answers a request whose own socket failed as a 400, without blaming the database', async () => {
    lines.length = 0;
    const res = await app.inject({ url: '/client-cut' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 400, message: MESSAGES.invalidRequest });
    expect(lines.join('')).not.toContain('database unreachable');
  });

  it('answers a lost database connection 503, logged as such', async () => {
    lines.length = 0;
    const res = await app.inject({ url: '/database-lost' });
    expect(res.statusCode).toBe(503);
    expect(lines.join('')).toContain('database unreachable: 503');
  });
});
