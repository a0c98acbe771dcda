// One statement at a time on each PostgreSQL connection. Code in a transaction may start several reads side
// by side (Promise.all over the transaction's connection: the loader, a list row, access checks); pg queues
// them itself, but calling client.query() while the client is busy is deprecated and goes away in pg 9. Each
// pooled client instead sends a promise-style query once the one before it on that client has finished, in
// the order they were asked, which is what pg's own queue did. Callback-style calls (pg-pool's pool.query,
// which takes an idle client per query) and submittables pass through unchanged.
import type pg from 'pg';

type QueryFn = (...args: unknown[]) => unknown;

const isPromiseStyle = (args: unknown[]): boolean =>
  typeof args[args.length - 1] !== 'function' &&
  !(
    args[0] !== null &&
    typeof args[0] === 'object' &&
    typeof (args[0] as { submit?: unknown }).submit === 'function'
  );

/** Makes `client` send its promise-style queries one after another (installed once, on connect). */
export function serializeQueries(client: pg.Client): void {
  let tail: Promise<unknown> = Promise.resolve();
  Object.defineProperty(client, 'query', {
    configurable: true,
    writable: true,
    value(this: pg.Client, ...args: unknown[]): unknown {
      // The prototype's method, looked up at each call (a test may watch it).
      const send = Object.getPrototypeOf(client).query as QueryFn;
      if (!isPromiseStyle(args)) return send.apply(client, args);
      const result = tail.then(() => send.apply(client, args) as Promise<unknown>);
      tail = result.catch(() => undefined);
      return result;
    },
  });
}
