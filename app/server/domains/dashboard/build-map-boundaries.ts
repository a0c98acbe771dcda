// npx tsx server/domains/dashboard/build-map-boundaries.ts [path/to/mdg_adm2.geojson]
// Rebuilds web/features/dashboard/geo/regions.geojson, the offline map layer committed with the client,
// from the OCHA district polygons of ../shared/data/geo (see docs/decisions/0013-offline-map.md).
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadGeography, regionOfDistrict } from '#server/db/seed/geo';
import { buildRegionLayer, type DistrictFeature } from './map-boundaries';

const root = resolve(import.meta.dirname, '../../..');
const source = process.argv[2] ?? resolve(root, '../shared/data/geo/mdg_adm2.geojson');
const target = resolve(root, 'web/features/dashboard/geo/regions.geojson');

const districts = (JSON.parse(readFileSync(source, 'utf8')) as { features: DistrictFeature[] }).features;
const names = new Map(loadGeography().regions.map((r) => [r.code, r.designation]));
const layer = buildRegionLayer(districts, regionOfDistrict(), names);
const text = JSON.stringify(layer);
writeFileSync(target, text + '\n');
const points = layer.features.reduce((n, f) => n + f.geometry.coordinates.flat(2).length, 0);
console.info(
  `${layer.features.length} régions, ${points} points, ${Math.round(text.length / 1024)} Kio → ${target}`,
);
