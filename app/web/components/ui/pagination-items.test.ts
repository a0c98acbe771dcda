import { describe, expect, it } from 'vitest';
import { pageCount, pageItems } from './pagination-items';

describe('pageCount', () => {
  it('gives one page for an empty list and rounds up partial pages', () => {
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(20, 20)).toBe(1);
    expect(pageCount(21, 20)).toBe(2);
    expect(pageCount(1000, 20)).toBe(50);
  });
});

describe('pageItems', () => {
  it('lists every page when there are 5 or fewer', () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(2, 3)).toEqual([1, 2, 3]);
    expect(pageItems(5, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('never shows more than 5 page numbers, with an ellipsis for hidden pages', () => {
    for (let total = 6; total <= 30; total++) {
      for (let page = 1; page <= total; page++) {
        const items = pageItems(page, total);
        const numbers = items.filter((i): i is number => typeof i === 'number');
        expect(numbers.length).toBeLessThanOrEqual(5);
        expect(numbers).toContain(page);
        expect(numbers).toContain(1);
        expect(numbers).toContain(total);
        expect(items.some((i) => typeof i === 'string')).toBe(true);
        expect([...numbers].sort((a, b) => a - b)).toEqual(numbers);
      }
    }
  });

  it('keeps the current page in the middle away from the ends', () => {
    expect(pageItems(1, 10)).toEqual([1, 2, 3, 4, 'ellipsis-end', 10]);
    expect(pageItems(3, 10)).toEqual([1, 2, 3, 4, 'ellipsis-end', 10]);
    expect(pageItems(4, 10)).toEqual([1, 'ellipsis-start', 3, 4, 5, 'ellipsis-end', 10]);
    expect(pageItems(6, 10)).toEqual([1, 'ellipsis-start', 5, 6, 7, 'ellipsis-end', 10]);
    expect(pageItems(8, 10)).toEqual([1, 'ellipsis-start', 7, 8, 9, 10]);
    expect(pageItems(10, 10)).toEqual([1, 'ellipsis-start', 7, 8, 9, 10]);
  });

  it('clamps a page outside the range', () => {
    expect(pageItems(0, 3)).toEqual([1, 2, 3]);
    expect(pageItems(99, 10)).toEqual([1, 'ellipsis-start', 7, 8, 9, 10]);
  });
});
