// Builds the offline map's region layer: today's 24 regions dissolved from the 2018 OCHA district
// polygons (docs/decisions/0002, 0013), then simplified arc by arc so neighbouring regions keep
// sharing their borders. Run by build-map-boundaries.ts; the result is committed with the client.

type Point = [number, number];
type Ring = Point[];
type PolygonCoords = Ring[];

export interface DistrictFeature {
  properties: { code_zone: string };
  geometry:
    { type: 'Polygon'; coordinates: PolygonCoords } | { type: 'MultiPolygon'; coordinates: PolygonCoords[] };
}

export interface RegionFeature {
  type: 'Feature';
  properties: { code: string; name: string };
  geometry: { type: 'MultiPolygon'; coordinates: PolygonCoords[] };
}

const key = (p: Point) => `${p[0]},${p[1]}`;
const edgeKey = (a: Point, b: Point) => (key(a) < key(b) ? `${key(a)}|${key(b)}` : `${key(b)}|${key(a)}`);

/** Twice the signed area (positive: counter-clockwise). */
function signedArea(ring: Ring): number {
  let sum = 0;
  for (let i = 0; i + 1 < ring.length; i++)
    sum += ring[i]![0] * ring[i + 1]![1] - ring[i + 1]![0] * ring[i]![1];
  return sum;
}

export function pointInRing(p: Point, ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function polygonsOf(feature: DistrictFeature): PolygonCoords[] {
  return feature.geometry.type === 'Polygon' ? [feature.geometry.coordinates] : feature.geometry.coordinates;
}

/** Rings of the union of a clean coverage: edges shared inside the group cancel out, the rest are chained. */
function dissolve(polygons: PolygonCoords[]): Ring[] {
  const uses = new Map<string, number>();
  const edges: Array<[Point, Point]> = [];
  for (const polygon of polygons) {
    for (const ring of polygon) {
      // Holes are walked reversed so that every boundary runs with the surface on the same side.
      const outer = ring === polygon[0];
      const oriented = signedArea(ring) > 0 === outer ? ring : [...ring].reverse();
      for (let i = 0; i + 1 < oriented.length; i++) {
        const k = edgeKey(oriented[i]!, oriented[i + 1]!);
        uses.set(k, (uses.get(k) ?? 0) + 1);
        edges.push([oriented[i]!, oriented[i + 1]!]);
      }
    }
  }
  const next = new Map<string, Point[]>();
  for (const [a, b] of edges) {
    if (uses.get(edgeKey(a, b))! > 1) continue;
    const list = next.get(key(a)) ?? [];
    list.push(b);
    next.set(key(a), list);
  }
  const rings: Ring[] = [];
  for (const [startKey, targets] of next) {
    while (targets.length > 0) {
      const start = startKey.split(',').map(Number) as Point;
      const ring: Ring = [start];
      let current = targets.pop()!;
      while (key(current) !== startKey) {
        ring.push(current);
        const onward = next.get(key(current));
        if (!onward || onward.length === 0) throw new Error(`Contour ouvert en ${key(current)}`);
        current = onward.pop()!;
      }
      ring.push(start);
      rings.push(ring);
    }
  }
  return rings;
}

function perpendicular(p: Point, a: Point, b: Point): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const length = Math.hypot(dx, dy);
  if (length === 0) return Math.hypot(p[0] - a[0], p[1] - a[1]);
  return Math.abs(dy * p[0] - dx * p[1] + b[0] * a[1] - b[1] * a[0]) / length;
}

/** Douglas–Peucker keeping both ends. */
function simplifyLine(points: Point[], tolerance: number): Point[] {
  if (points.length <= 2) return points;
  let worst = 0;
  let index = 0;
  for (let i = 1; i < points.length - 1; i++) {
    const d = perpendicular(points[i]!, points[0]!, points.at(-1)!);
    if (d > worst) [worst, index] = [d, i];
  }
  if (worst <= tolerance) return [points[0]!, points.at(-1)!];
  return [
    ...simplifyLine(points.slice(0, index + 1), tolerance).slice(0, -1),
    ...simplifyLine(points.slice(index), tolerance),
  ];
}

/**
 * Simplifies every ring of every region the same way on both sides of a shared border: rings are cut
 * at the vertices where the neighbour changes, and each piece is simplified once in a canonical direction.
 */
function simplifyShared(
  regions: Map<string, Ring[]>,
  tolerance: number,
  decimals: number,
): Map<string, Ring[]> {
  const owners = new Map<string, Set<string>>();
  for (const [code, rings] of regions) {
    for (const ring of rings) {
      for (let i = 0; i + 1 < ring.length; i++) {
        const k = edgeKey(ring[i]!, ring[i + 1]!);
        owners.set(k, (owners.get(k) ?? new Set()).add(code));
      }
    }
  }
  const sideOf = (a: Point, b: Point) => [...owners.get(edgeKey(a, b))!].sort().join('+');
  const factor = 10 ** decimals;
  const round = (p: Point): Point => [Math.round(p[0] * factor) / factor, Math.round(p[1] * factor) / factor];
  const done = new Map<string, Point[]>();
  const simplifyArc = (arc: Point[]): Point[] => {
    const forward = arc.map(key).join(';');
    const backward = [...arc].reverse().map(key).join(';');
    const canonical = forward < backward ? arc : [...arc].reverse();
    const id = forward < backward ? forward : backward;
    let result = done.get(id);
    if (!result) {
      result = simplifyLine(canonical, tolerance).map(round);
      done.set(id, result);
    }
    return forward < backward ? result : [...result].reverse();
  };

  const out = new Map<string, Ring[]>();
  for (const [code, rings] of regions) {
    const kept: Ring[] = [];
    for (const closed of rings) {
      const ring = closed.slice(0, -1);
      const n = ring.length;
      const sides = ring.map((p, i) => sideOf(p, ring[(i + 1) % n]!));
      let cuts = ring.map((_, i) => i).filter((i) => sides[(i - 1 + n) % n] !== sides[i]);
      if (cuts.length === 0) {
        // No neighbour change: cut at the smallest and largest vertices, which both sides agree on.
        const smallest = ring.reduce((best, p, i) => (key(p) < key(ring[best]!) ? i : best), 0);
        const largest = ring.reduce((best, p, i) => (key(p) > key(ring[best]!) ? i : best), 0);
        cuts = [smallest, largest].sort((a, b) => a - b);
      }
      const points: Point[] = [];
      for (let c = 0; c < cuts.length; c++) {
        const from = cuts[c]!;
        const to = cuts[(c + 1) % cuts.length]!;
        const arc: Point[] = [];
        for (let i = from; ; i = (i + 1) % n) {
          arc.push(ring[i]!);
          if (arc.length > 1 && i === to) break;
        }
        points.push(...simplifyArc(arc).slice(0, -1));
      }
      const deduped = points.filter((p, i) => key(p) !== key(points[(i + 1) % points.length]!));
      if (deduped.length >= 3) kept.push([...deduped, deduped[0]!]);
    }
    out.set(code, kept);
  }
  return out;
}

/** Groups outer rings (counter-clockwise) with the holes they contain. */
function toMultiPolygon(rings: Ring[]): PolygonCoords[] {
  const outers = rings.filter((r) => signedArea(r) > 0);
  const holes = rings.filter((r) => signedArea(r) <= 0);
  const polygons: PolygonCoords[] = outers
    .sort((a, b) => signedArea(b) - signedArea(a))
    .map((outer) => [outer]);
  for (const hole of holes) {
    const host = polygons.find((p) => pointInRing(hole[0]!, p[0]!) || pointInRing(hole[1]!, p[0]!));
    host?.push(hole);
  }
  return polygons;
}

export function buildRegionLayer(
  districts: DistrictFeature[],
  regionOfDistrict: ReadonlyMap<string, string>,
  regionNames: ReadonlyMap<string, string>,
  { tolerance = 0.004, decimals = 4 } = {},
): { type: 'FeatureCollection'; features: RegionFeature[] } {
  const grouped = new Map<string, PolygonCoords[]>();
  for (const district of districts) {
    const region = regionOfDistrict.get(district.properties.code_zone);
    if (!region) throw new Error(`District sans région : ${district.properties.code_zone}`);
    grouped.set(region, [...(grouped.get(region) ?? []), ...polygonsOf(district)]);
  }
  const dissolved = new Map([...grouped].map(([code, polygons]) => [code, dissolve(polygons)]));
  const simplified = simplifyShared(dissolved, tolerance, decimals);
  const features = [...simplified]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, rings]): RegionFeature => ({
      type: 'Feature',
      properties: { code, name: regionNames.get(code) ?? code },
      geometry: { type: 'MultiPolygon', coordinates: toMultiPolygon(rings) },
    }));
  return { type: 'FeatureCollection', features };
}
