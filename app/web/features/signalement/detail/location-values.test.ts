import { describe, expect, it } from 'vitest';
import {
  chooseDistrict,
  chooseRegion,
  sameLocation,
  toLocationInput,
  type LocationValues,
} from './location-values';

const full: LocationValues = { region: 'R1', district: 'D1', commune: 'C1', fokontany: 'Ambohijatovo' };

describe('location cascade (§4)', () => {
  it('clears district and commune when the region changes, keeps them when it does not', () => {
    expect(chooseRegion(full, 'R2')).toEqual({
      region: 'R2',
      district: null,
      commune: null,
      fokontany: 'Ambohijatovo',
    });
    expect(chooseRegion(full, null)).toMatchObject({ district: null, commune: null });
    expect(chooseRegion(full, 'R1')).toBe(full);
  });
  it('clears the commune when the district changes', () => {
    expect(chooseDistrict(full, 'D2')).toEqual({ ...full, district: 'D2', commune: null });
    expect(chooseDistrict(full, 'D1')).toBe(full);
  });
  it('compares fokontany without surrounding blanks and sends a blank one as null', () => {
    expect(sameLocation(full, { ...full, fokontany: ' Ambohijatovo ' })).toBe(true);
    expect(toLocationInput('SIG', { ...full, fokontany: '  ' })).toEqual({
      code: 'SIG',
      region: 'R1',
      district: 'D1',
      commune: 'C1',
      fokontany: null,
    });
  });
});
