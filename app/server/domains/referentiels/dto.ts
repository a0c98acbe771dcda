// Mappers from rows to the shared DTOs of reference resources ('@id' = /api/<collection>/<code>).
import type {
  CanalDto,
  NiveauDto,
  PartenaireRefDto,
  PlaceDto,
  ProjectDto,
  RefDto,
  StatutDto,
} from '#shared/dto/signalements';
import type { StatutKind } from '#shared/constants';

type Coded = { code: string; designation: string };

export const iri = (collection: string, code: string) => `/api/${collection}/${encodeURIComponent(code)}`;

export const refDto = (collection: string, row: Coded): RefDto => ({
  '@id': iri(collection, row.code),
  code: row.code,
  designation: row.designation,
});

export const canalDto = (row: Coded & { icon: string }): CanalDto => ({
  ...refDto('canals', row),
  icon: row.icon,
});
export const niveauDto = (row: Coded & { color: string; rank: number }): NiveauDto => ({
  ...refDto('niveaux', row),
  color: row.color,
  rank: row.rank,
});
export const statutDto = (row: Coded & { kind: StatutKind }): StatutDto => ({
  ...refDto('statuts', row),
  kind: row.kind,
});
export const partenaireRefDto = (row: Coded & { initial: string; color: string }): PartenaireRefDto => ({
  ...refDto('partenaires', row),
  initial: row.initial,
  color: row.color,
});
export const placeDto = (
  collection: 'regions' | 'districts' | 'communes',
  row: Coded & { latitude: number | null; longitude: number | null },
): PlaceDto => ({ ...refDto(collection, row), latitude: row.latitude, longitude: row.longitude });
export const projectDto = (
  row: Coded & { sigle: string; description: string | null },
  owner: Coded & { initial: string; color: string },
): ProjectDto => ({
  ...refDto('projects', row),
  sigle: row.sigle,
  description: row.description,
  owner: partenaireRefDto(owner),
});

type PlaceTable = { code: unknown; designation: unknown; latitude: unknown; longitude: unknown };
/** The columns every place DTO is made from, for a select. */
// The indexed types keep each column's own type: plain property access on T would widen to unknown.
export const placeColumns = <T extends PlaceTable>(table: T) => ({
  code: table.code as T['code'],
  designation: table.designation as T['designation'],
  latitude: table.latitude as T['latitude'],
  longitude: table.longitude as T['longitude'],
});

/** Drizzle gives a left-joined object whose columns are all null; the DTO wants null. */
export const orNull = <T extends { code: string | null }>(row: T | null): (T & { code: string }) | null =>
  row && row.code !== null ? (row as T & { code: string }) : null;
