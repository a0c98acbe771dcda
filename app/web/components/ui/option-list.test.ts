import { describe, expect, it } from 'vitest';
import { filterOptions } from './option-list';

const options = [
  { value: 'DETOURNEMENT', label: 'Détournement de deniers publics' },
  { value: 'CORRUPTION', label: 'Corruption' },
  { value: 'IVY', label: 'Ivorary', hint: 'IV' },
];

describe('filterOptions', () => {
  it('ignores case and accents', () => {
    expect(filterOptions(options, 'detour').map((o) => o.value)).toEqual(['DETOURNEMENT']);
    expect(filterOptions(options, 'CORR').map((o) => o.value)).toEqual(['CORRUPTION']);
  });
  it('matches the code and returns everything for a blank term', () => {
    expect(filterOptions(options, 'ivy').map((o) => o.value)).toEqual(['IVY']);
    expect(filterOptions(options, '  ')).toHaveLength(3);
  });
});
