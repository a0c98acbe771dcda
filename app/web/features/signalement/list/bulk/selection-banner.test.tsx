// The banner that extends a page's selection to the filter (docs/decisions/0035-bulk-actions.md): a count
// when the list's total is exact and within the cap, no count when the total is only bounded (the preview
// gives it), and a note instead of the offer when the filter holds more than the cap.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BULK_MAX } from '#shared/constants';
import { SelectionBanner } from './selection-banner';
import type { BulkSelection } from './use-bulk-selection';

const selection = (over: Partial<BulkSelection> = {}): BulkSelection => ({
  codes: new Set(['A', 'B']),
  wholeFilter: false,
  allOnPage: true,
  someOnPage: true,
  toggle: () => undefined,
  togglePage: () => undefined,
  selectFilter: () => undefined,
  clear: () => undefined,
  ...over,
});
const text = (s: BulkSelection, total: number, totalExact = true) =>
  renderToStaticMarkup(<SelectionBanner selection={s} pageSize={2} total={total} totalExact={totalExact} />)
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('selection banner', () => {
  it('offers the whole filter with its count, then says it is selected', () => {
    expect(text(selection(), 42)).toBe(
      'Les 2 signalements de cette page sont sélectionnés. Sélectionner les 42 signalements du filtre',
    );
    expect(text(selection({ wholeFilter: true }), 42)).toBe(
      'Les 42 signalements du filtre sont sélectionnés. Annuler la sélection',
    );
  });

  it('offers a filter whose total is only bounded without a count, and refuses one beyond the cap', () => {
    expect(text(selection(), 1000, false)).toContain('Sélectionner tous les signalements du filtre');
    expect(text(selection({ wholeFilter: true }), 1000, false)).toContain(
      'Tous les signalements du filtre sont sélectionnés.',
    );
    expect(text(selection(), BULK_MAX + 1)).toContain(
      'Le filtre compte plus de 10 000 signalements : affinez-le pour agir sur tous.',
    );
    expect(text(selection(), BULK_MAX + 1)).not.toContain('Sélectionner');
  });

  it('shows nothing before the whole page is selected, or when the page is the whole filter', () => {
    expect(text(selection({ allOnPage: false }), 42)).toBe('');
    expect(text(selection(), 2)).toBe('');
  });
});
