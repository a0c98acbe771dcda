import type { LocalisationDto } from '#shared/dto/signalements';

export interface LocationValues {
  region: string | null;
  district: string | null;
  commune: string | null;
  fokontany: string;
}

export function locationValuesFrom(l: LocalisationDto | null | undefined): LocationValues {
  return {
    region: l?.region?.code ?? null,
    district: l?.district?.code ?? null,
    commune: l?.commune?.code ?? null,
    fokontany: l?.fokontany ?? '',
  };
}

/** §4: a new region clears district and commune; a new district clears commune. */
export function chooseRegion(values: LocationValues, region: string | null): LocationValues {
  if (region === values.region) return values;
  return { ...values, region, district: null, commune: null };
}

export function chooseDistrict(values: LocationValues, district: string | null): LocationValues {
  if (district === values.district) return values;
  return { ...values, district, commune: null };
}

export function sameLocation(a: LocationValues, b: LocationValues): boolean {
  return (
    a.region === b.region &&
    a.district === b.district &&
    a.commune === b.commune &&
    a.fokontany.trim() === b.fokontany.trim()
  );
}

/** Input of signalements.updateLocalisation. */
export function toLocationInput(code: string, values: LocationValues) {
  return {
    code,
    region: values.region,
    district: values.district,
    commune: values.commune,
    fokontany: values.fokontany.trim() || null,
  };
}
