import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadGeography } from '#server/db/seed/geo';
import { buildRegionLayer, pointInRing, type DistrictFeature, type RegionFeature } from './map-boundaries';

const square = (code: string, x: number, y: number): DistrictFeature => ({
  properties: { code_zone: code },
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [x, y],
        [x + 1, y],
        [x + 1, y + 1],
        [x, y + 1],
        [x, y],
      ],
    ],
  },
});

const inside = (feature: RegionFeature, p: [number, number]) =>
  feature.geometry.coordinates.some(
    ([outer, ...holes]) => pointInRing(p, outer!) && !holes.some((hole) => pointInRing(p, hole)),
  );

describe('offline region layer', () => {
  it('dissolves districts of one region into one outline and keeps a neighbour separate', () => {
    const layer = buildRegionLayer(
      [square('D1', 0, 0), square('D2', 1, 0), square('D3', 2, 0)],
      new Map([
        ['D1', 'R1'],
        ['D2', 'R1'],
        ['D3', 'R2'],
      ]),
      new Map([
        ['R1', 'Un'],
        ['R2', 'Deux'],
      ]),
      { tolerance: 0.001, decimals: 4 },
    );
    expect(layer.features.map((f) => f.properties)).toEqual([
      { code: 'R1', name: 'Un' },
      { code: 'R2', name: 'Deux' },
    ]);
    const [r1, r2] = layer.features;
    // The shared edge between D1 and D2 is gone: one ring of four corners (plus the closing point).
    expect(r1!.geometry.coordinates).toHaveLength(1);
    expect(r1!.geometry.coordinates[0]![0]).toHaveLength(5);
    expect(inside(r1!, [1, 0.5])).toBe(true);
    expect(inside(r1!, [2.5, 0.5])).toBe(false);
    expect(inside(r2!, [2.5, 0.5])).toBe(true);
  });

  it('ships today’s 24 regions, each containing its own label point and no other', () => {
    const file = resolve(import.meta.dirname, '../../../web/features/dashboard/geo/regions.geojson');
    const layer = JSON.parse(readFileSync(file, 'utf8')) as { features: RegionFeature[] };
    const regions = loadGeography().regions;
    expect(layer.features.map((f) => f.properties.code).sort()).toEqual(regions.map((r) => r.code).sort());
    expect(layer.features).toHaveLength(24);
    for (const region of regions) {
      const point: [number, number] = [region.longitude, region.latitude];
      const containing = layer.features.filter((f) => inside(f, point)).map((f) => f.properties.code);
      expect(containing, region.designation).toEqual([region.code]);
      expect(layer.features.find((f) => f.properties.code === region.code)!.properties.name).toBe(
        region.designation,
      );
    }
  });
});
