import { createTRPCClient, TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { describe, expect, it } from 'vitest';
import type { AppRouter } from '#server/trpc/router';
import { idempotencyLink, newIdempotencyKey } from './idempotency-link';

/** A client whose transport records each operation's key and fails the calls it is told to. */
function client(outcomes: Array<'fail' | 'ok'>) {
  const keys: string[] = [];
  const transport: TRPCLink<AppRouter> =
    () =>
    ({ op }) =>
      observable((observer) => {
        keys.push(String(op.context.idempotencyKey));
        if (outcomes.shift() === 'fail') observer.error(TRPCClientError.from(new Error('connexion coupée')));
        else {
          observer.next({ result: { type: 'data', data: { code: 'PRJ-1' } } });
          observer.complete();
        }
      });
  return { keys, trpc: createTRPCClient<AppRouter>({ links: [idempotencyLink, transport] }) };
}

const input = { sigle: 'S', designation: 'Projet', owner: 'IVY' };

describe('idempotency link', () => {
  it('sends the same key when the same submission is sent again after a failure, a new one after a success', async () => {
    const { keys, trpc } = client(['fail', 'fail', 'ok', 'ok']);
    await expect(trpc.projects.create.mutate(input)).rejects.toThrow();
    await expect(trpc.projects.create.mutate(input)).rejects.toThrow();
    await trpc.projects.create.mutate(input);
    await trpc.projects.create.mutate(input);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toBe(keys[0]);
    expect(keys[3]).not.toBe(keys[0]);
  });

  it('gives another submission (another input) its own key', async () => {
    const { keys, trpc } = client(['fail', 'ok']);
    await expect(trpc.projects.create.mutate(input)).rejects.toThrow();
    await trpc.projects.create.mutate({ ...input, sigle: 'T' });
    expect(keys[1]).not.toBe(keys[0]);
  });

  it('makes keys the server accepts (8 to 128 letters, digits and - _ . :)', () => {
    expect(newIdempotencyKey()).toMatch(/^[A-Za-z0-9_.:-]{8,128}$/);
  });
});
