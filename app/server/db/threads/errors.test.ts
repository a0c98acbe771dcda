// The one error format of every thread: what a thread posts (a structured clone of encodeError's answer)
// comes back on the main thread with its class, kind, status, French message and engine code.
import { describe, expect, it } from 'vitest';
import { DomainError, HttpError, MESSAGES, readTimeout } from '#server/errors';
import { decodeError, encodeError } from './errors';

const across = (error: unknown) => decodeError(structuredClone(encodeError(error)));

describe('thread error codec', () => {
  it('keeps a DomainError, also one a library wrapped, and the deadline 503', () => {
    const refused = across(new DomainError('invalid', 'Données invalides.', { field: 'email' }));
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({
      kind: 'invalid',
      message: 'Données invalides.',
      details: { field: 'email' },
    });
    const wrapped = across(new Error('Failed query', { cause: readTimeout() }));
    expect(wrapped).toBeInstanceOf(DomainError);
    expect(wrapped).toMatchObject({ kind: 'unavailable', message: MESSAGES.readTimeout });
  });

  it('keeps an HttpError status and message', () => {
    const error = across(new HttpError(415, MESSAGES.unsupportedMediaType));
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ statusCode: 415, message: MESSAGES.unsupportedMediaType });
  });

  it("keeps another error's name, message and engine code", () => {
    const busy = Object.assign(new Error('database is locked'), { name: 'SqliteError', code: 'SQLITE_BUSY' });
    expect(across(busy)).toMatchObject({
      name: 'SqliteError',
      message: 'database is locked',
      code: 'SQLITE_BUSY',
    });
    expect(across('texte')).toMatchObject({ name: 'Error', message: 'texte' });
  });
});
