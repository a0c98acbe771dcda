// The memory of buffers a thread hands over (transferred, not copied) to the serving thread: the xlsx
// export's chunks (export-runner.ts). Once the response has sent them they are garbage, but their memory is
// outside V8's heap and is only returned when a collection finds them dead; the serving thread allocates
// little while it streams a file, so it rarely collects, and without help it held every chunk of an export
// until its end (about 26 MB for 100,000 reports: docs/decisions/0059-transferred-chunks-released.md). A
// young-generation collection (a scavenge, a millisecond or two on the serving thread) returns them:
// `Transferred.received` asks for one each time RELEASE_BYTES more have been received. The collector is
// reached through V8's documented `--expose-gc` flag, set once for the process and read in a context of its
// own (node:vm), not on the command line, so `npm start`, the tests and the single executable run it alike.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's `gc`, as it is called here: a young-generation collection. */
type Collect = (options: { type: 'minor' }) => void;

let collect: Collect | null | undefined;
/**
 * V8's collector, or null where it cannot be had (a runtime that refuses the flag): the chunks are then
 * returned by the collections V8 makes by itself, later, and the export goes on.
 */
function collector(): Collect | null {
  if (collect === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      try {
        const gc: unknown = runInNewContext('gc');
        collect = typeof gc === 'function' ? (gc as Collect) : null;
      } finally {
        // Only this context gets it: contexts and threads made later (the export's, the readers') do not.
        setFlagsFromString('--no-expose-gc');
      }
    } catch {
      collect = null;
    }
  }
  return collect;
}

/** Bytes received between two collections: a few of the export's 256 KB chunks. */
export const RELEASE_BYTES = 4 * 1024 * 1024;

/** Counts the bytes received from a thread, and returns the memory of those already sent now and then. */
export class Transferred {
  private since = 0;

  received(bytes: number): void {
    this.since += bytes;
    if (this.since < RELEASE_BYTES) return;
    this.since = 0;
    try {
      collector()?.({ type: 'minor' });
    } catch {
      // Called from a thread's message listener: a collector that fails is not asked again, and the
      // export goes on as where there is none.
      collect = null;
    }
  }
}
