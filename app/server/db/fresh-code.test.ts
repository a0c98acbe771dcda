import { describe, expect, it } from 'vitest';
import { FRESH_CODE_ATTEMPTS, insertWithFreshCode } from './fresh-code';

describe('insertWithFreshCode', () => {
  it('chooses a new code while the insert finds it taken, and returns the inserted row', async () => {
    const taken = new Set(['A-1', 'A-2']);
    let n = 0;
    const tried: string[] = [];
    const row = await insertWithFreshCode(
      'test',
      () => `A-${++n}`,
      async (code) => {
        tried.push(code);
        return taken.has(code) ? undefined : { code };
      },
    );
    expect(row).toEqual({ code: 'A-3' });
    expect(tried).toEqual(['A-1', 'A-2', 'A-3']);
  });

  it(`gives up after ${FRESH_CODE_ATTEMPTS} taken codes, and lets another error through at once`, async () => {
    let inserts = 0;
    await expect(
      insertWithFreshCode(
        'test',
        () => 'A-1',
        async () => {
          inserts++;
          return undefined;
        },
      ),
    ).rejects.toThrow(`no free test code after ${FRESH_CODE_ATTEMPTS} attempts`);
    expect(inserts).toBe(FRESH_CODE_ATTEMPTS);
    const other = new Error('unique violation on another index');
    await expect(
      insertWithFreshCode(
        'test',
        () => 'A-1',
        () => Promise.reject(other),
      ),
    ).rejects.toBe(other);
  });
});
