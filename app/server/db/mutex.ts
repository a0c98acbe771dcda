/** A FIFO async mutex: run() calls execute one at a time, in the order they were made. */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();
  /** Calls made and not finished: the running one and those waiting behind it. */
  pending = 0;

  run<T>(fn: () => Promise<T>): Promise<T> {
    this.pending++;
    const done = () => {
      this.pending--;
    };
    const result = this.tail.then(fn, fn);
    result.then(done, done);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
