import { describe, expect, it } from 'vitest';
import { separability } from './separability';

describe('separability', () => {
  it('is 1 when every present time is slower than every absent one, or every one faster', () => {
    expect(separability([5, 6, 7], [1, 2, 3])).toBe(1);
    expect(separability([1, 2, 3], [5, 6, 7])).toBe(1);
  });

  it('stays near chance (0.5) when the samples interleave, and is chance when they are the same', () => {
    // Best: below 2 means present (the present 1, the absent 2 to 8), 5 right out of 8.
    expect(separability([1, 3, 5, 7], [2, 4, 6, 8])).toBeCloseTo(5 / 8);
    // Equal times cannot be split by a threshold, whatever order the sort left them in.
    expect(separability([1, 2, 3, 4], [1, 2, 3, 4])).toBe(0.5);
  });

  it('counts the best threshold, not the first one', () => {
    // Above 2 means present: right for 1 and 2 absent, and 3, 4, 5 present; wrong for the absent 6.
    expect(separability([3, 4, 5], [1, 2, 6])).toBeCloseTo(5 / 6);
  });
});
