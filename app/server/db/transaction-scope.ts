// The transaction the current code runs in, for both engines (client.ts): reads, raw statements and
// nested transactions join it, and work registered with afterCommit waits for its COMMIT
// (docs/decisions/0001-two-engines.md).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database, Orm } from './client';
import type { Preparable } from './prepared';

interface Entry {
  /** Set once the engine has begun the transaction. */
  orm: Orm | null;
  /** False once it has committed or rolled back: work that outlives it (a timer started inside) no longer joins it. */
  open: boolean;
  afterCommit: Array<() => void>;
}

export class TransactionScope {
  private readonly storage = new AsyncLocalStorage<Entry>();

  /** The open transaction this code runs in, if any. */
  current(): Orm | undefined {
    const entry = this.storage.getStore();
    return entry?.open && entry.orm ? entry.orm : undefined;
  }

  /**
   * Runs `fn` in a new outermost transaction. `begin` opens it and calls `body` with the transaction's Orm
   * between BEGIN and COMMIT; once `begin` resolves (committed), the work registered by afterCommit runs,
   * in order; when it rejects (rolled back), that work is dropped.
   */
  async outermost<T>(
    begin: (body: (tx: Orm) => Promise<T>) => Promise<T>,
    fn: (tx: Orm) => Promise<T>,
  ): Promise<T> {
    const entry: Entry = { orm: null, open: true, afterCommit: [] };
    let result: T;
    try {
      result = await begin((tx) => {
        entry.orm = tx;
        return this.storage.run(entry, () => fn(tx));
      });
    } finally {
      entry.open = false;
    }
    for (const work of entry.afterCommit) runCommitted(work);
    return result;
  }

  /** Inside a transaction: `work` runs once its outermost transaction has committed. Outside: at once. */
  afterCommit(work: () => void): void {
    const entry = this.storage.getStore();
    if (entry?.open) entry.afterCommit.push(work);
    else runCommitted(work);
  }
}

/** The transaction has committed: a failure of what follows it must not make its caller believe otherwise. */
function runCommitted(work: () => void): void {
  try {
    work();
  } catch (error) {
    console.error('Après validation d’une transaction :', error);
  }
}

/** Database.prepared: inside a transaction the statement is built on it and run once, not kept. */
export function joiningTransaction(
  scope: TransactionScope,
  prepared: Database['prepared'],
): Database['prepared'] {
  return async function <R>(
    name: string,
    build: (orm: Orm) => Preparable<R>,
    values: Record<string, unknown>,
  ): Promise<Awaited<R>> {
    const tx = scope.current();
    if (!tx) return prepared(name, build, values);
    return (await build(tx).prepare().execute(values)) as Awaited<R>;
  };
}
