// Which errors mean "the database cannot be reached now" (503, retry) and which remain the request's own.
import { DrizzleQueryError } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isConnectionLost } from './connection-lost';

const pgError = (code: string, message = 'x') =>
  Object.assign(new pg.DatabaseError(message, 0, 'error'), { code });
const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });

describe('isConnectionLost', () => {
  it.each([
    ['a terminated backend (57P01)', pgError('57P01', 'terminating connection due to administrator command')],
    ['a crash shutdown (57P02)', pgError('57P02')],
    ['a server starting or stopping (57P03)', pgError('57P03', 'the database system is shutting down')],
    ['a connection failure (08006)', pgError('08006')],
    ['a refused connection', socketError('ECONNREFUSED')],
    ['a reset connection', socketError('ECONNRESET')],
    ['a socket closed under a query', new Error('Connection terminated unexpectedly')],
    [
      'a client used after its connection failed',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
    ['no connection in time', new Error('timeout exceeded when trying to connect')],
    ['a lost connection wrapped by Drizzle', new DrizzleQueryError('select 1', [], pgError('57P01'))],
    [
      'a refused connection to every address',
      new AggregateError([socketError('ECONNREFUSED'), socketError('ECONNREFUSED')]),
    ],
  ])('%s: yes', (_name, error) => {
    expect(isConnectionLost(error)).toBe(true);
  });

  it.each([
    ['a unique violation', new DrizzleQueryError('insert …', ['Connection terminated'], pgError('23505'))],
    ['a statement timeout', pgError('57014', 'canceling statement due to statement timeout')],
    ['a programming error', new TypeError('Cannot read properties of undefined')],
    ['a SQLite error', Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })],
    ['nothing', undefined],
  ])('%s: no', (_name, error) => {
    expect(isConnectionLost(error)).toBe(false);
  });
});
