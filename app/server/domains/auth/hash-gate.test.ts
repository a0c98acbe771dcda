import { describe, expect, it, vi } from 'vitest';
import { BUSY_MESSAGE, HashGate, SHARE_MESSAGE } from './hash-gate';

/** A piece of work that runs until the test lets it finish. */
function held() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: () => done, finish };
}

describe('the hashing gate', () => {
  it("refuses an address's place beyond its share at once, and gives it back when a log-in ends", () => {
    const gate = new HashGate(1, 32, 2);
    const first = gate.admit('10.0.0.1');
    gate.admit('10.0.0.1');
    expect(() => gate.admit('10.0.0.1')).toThrow(SHARE_MESSAGE);
    // Another address is not concerned.
    gate.admit('10.0.0.2').release();
    first.release();
    first.release(); // twice is once
    expect(gate.placesOf('10.0.0.1')).toBe(1);
    expect(() => gate.admit('10.0.0.1')).not.toThrow();
  });

  it("gives a freed slot to another address before the busy address's queued work", async () => {
    const gate = new HashGate(1, 32, 2);
    const order: string[] = [];
    const a1 = held();
    const a2 = held();
    const b1 = held();
    const run = (key: string, w: ReturnType<typeof held>) =>
      gate.run(async () => {
        order.push(key);
        await w.work();
      }, key);
    const runs = [run('A', a1), run('A', a2)];
    await vi.waitFor(() => expect(gate.queued).toBe(1));
    runs.push(run('B', b1));
    expect(gate.queued).toBe(2);
    a1.finish();
    await vi.waitFor(() => expect(order).toEqual(['A', 'B']));
    b1.finish();
    await vi.waitFor(() => expect(order).toEqual(['A', 'B', 'A']));
    a2.finish();
    await Promise.all(runs);
    expect(gate.queued).toBe(0);
  });

  it('prefers the address with fewer hashes running when several slots are busy', async () => {
    const gate = new HashGate(2, 32, 2);
    const order: string[] = [];
    const works = new Map<string, ReturnType<typeof held>>();
    const run = (name: string) => {
      const w = held();
      works.set(name, w);
      return gate.run(async () => {
        order.push(name);
        await w.work();
      }, name[0]);
    };
    const runs = [run('A1'), run('A2'), run('A3'), run('B1')];
    await vi.waitFor(() => expect(gate.queued).toBe(2));
    works.get('A1')!.finish();
    // A still runs A2; B runs nothing: B goes first although A3 came earlier.
    await vi.waitFor(() => expect(order).toEqual(['A1', 'A2', 'B1']));
    for (const w of works.values()) w.finish();
    await vi.waitFor(() => expect(order).toEqual(['A1', 'A2', 'B1', 'A3']));
    for (const w of works.values()) w.finish();
    await Promise.all(runs);
  });

  it('refuses work beyond the waiting room with 429, whatever the address', async () => {
    const gate = new HashGate(1, 1, 2);
    const a = held();
    const b = held();
    const runs = [gate.run(a.work, 'A'), gate.run(b.work, 'B')];
    await vi.waitFor(() => expect(gate.queued).toBe(1));
    await expect(gate.run(async () => undefined, 'C')).rejects.toThrow(BUSY_MESSAGE);
    a.finish();
    b.finish();
    await Promise.all(runs);
  });
});
