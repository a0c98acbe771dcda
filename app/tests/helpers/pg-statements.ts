// The statements a piece of code sends to PostgreSQL, captured where they leave this thread's clients
// (pooled or not), with the order in which each was sent and answered among all these events: enough to
// count statements and round trips, and to tell statements sent side by side from ones sent one after
// another, without timing anything.
import pg from 'pg';
import { vi } from 'vitest';

export interface SentStatement {
  /** The statement's text, or its name when it is a named prepared statement. */
  text: string;
  /** The order of its sending among the events of this capture. */
  sentAt: number;
  /** The order of its answer (or failure); unset when it never answered. */
  answeredAt?: number;
}

export async function pgStatementsOf<T>(run: () => Promise<T>): Promise<{ value: T; sent: SentStatement[] }> {
  const query = pg.Client.prototype.query;
  const sent: SentStatement[] = [];
  let clock = 0;
  const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
    this: pg.Client,
    ...args: unknown[]
  ) {
    const config = args[0] as string | { text: string; name?: string };
    const entry: SentStatement = {
      text: typeof config === 'string' ? config : (config.name ?? config.text),
      sentAt: clock++,
    };
    sent.push(entry);
    const answered = () => {
      entry.answeredAt ??= clock++;
    };
    // pg-pool passes a callback; a client used directly returns a promise.
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (...results: unknown[]) => {
        answered();
        return (callback as (...r: unknown[]) => unknown)(...results);
      };
    }
    const result = (query as (...a: unknown[]) => unknown).apply(this, args);
    if (result instanceof Promise) void result.then(answered, answered);
    return result as never;
  });
  try {
    return { value: await run(), sent };
  } finally {
    spy.mockRestore();
  }
}

/**
 * The statements grouped in round trips: a statement joins the current wave when it was sent before the
 * first answer of that wave (side by side with it), otherwise it opens the next wave (it waited).
 */
export function waves(sent: SentStatement[]): string[][] {
  const ordered = [...sent].sort((a, b) => a.sentAt - b.sentAt);
  const out: SentStatement[][] = [];
  for (const statement of ordered) {
    const wave = out.at(-1);
    const firstAnswer = wave ? Math.min(...wave.map((s) => s.answeredAt ?? Infinity)) : -Infinity;
    if (wave && statement.sentAt < firstAnswer) wave.push(statement);
    else out.push([statement]);
  }
  return out.map((wave) => wave.map((s) => s.text));
}
