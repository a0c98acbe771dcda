// The serving thread returns the memory of the buffers a thread hands it once they are dropped, as more
// arrive (transferred.ts): without it, an export's 26 MB of chunks stayed in the process until its end.
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { RELEASE_BYTES, Transferred } from './transferred';

const CHUNK = 256 * 1024;
const held = () => process.memoryUsage().arrayBuffers;

describe('buffers received from a thread', () => {
  it('keeps about RELEASE_BYTES of those already dropped, however many arrive', () => {
    const transferred = new Transferred();
    const before = held();
    let most = 0;
    // 20 MB of chunks, each used (as a response sends it) then dropped, as the export's are.
    for (let i = 0; i < 80; i++) {
      const chunk = Buffer.from(new ArrayBuffer(CHUNK));
      chunk.fill(i);
      transferred.received(chunk.byteLength);
      most = Math.max(most, held() - before);
    }
    // RELEASE_BYTES of chunks at most, beside the test runner's own buffers (its messages, a few hundred KB
    // at times): far from the 20 MB a thread's chunks reach when nothing returns them.
    expect(most).toBeLessThan(2 * RELEASE_BYTES);
  });

  it('never frees a buffer still in use', () => {
    const transferred = new Transferred();
    const kept: Buffer[] = [];
    for (let i = 0; i < 40; i++) {
      const chunk = Buffer.alloc(CHUNK, i);
      kept.push(chunk);
      transferred.received(chunk.byteLength);
    }
    expect(kept.every((chunk, i) => chunk.byteLength === CHUNK && chunk[0] === i && chunk.at(-1) === i)).toBe(
      true,
    );
  });

  it("leaves V8's collector out of the contexts and threads made after it", async () => {
    // A process started with --expose-gc exposes it everywhere: nothing to check there.
    if (typeof (globalThis as { gc?: unknown }).gc === 'function') return;
    new Transferred().received(RELEASE_BYTES);
    expect(runInNewContext('typeof gc')).toBe('undefined');
    const thread = new Worker('require("node:worker_threads").parentPort.postMessage(typeof gc)', {
      eval: true,
    });
    const seen = await new Promise((resolve, reject) => {
      thread.once('message', resolve);
      thread.once('error', reject);
    });
    await thread.terminate();
    expect(seen).toBe('undefined');
  });
});
