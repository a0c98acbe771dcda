// The map itself, in its own chunk with maplibre-gl: loaded only when the dashboard shows a map.
import 'maplibre-gl/dist/maplibre-gl.css';
import { useMemo, useState } from 'react';
import MapView, {
  Layer,
  NavigationControl,
  Popup,
  Source,
  type MapLayerMouseEvent,
} from 'react-map-gl/maplibre';
import type { StyleSpecification } from 'maplibre-gl';
// maplibre-gl 6 finds its worker next to its own module, which a bundle moves: Vite builds the worker
// (with the chunk it imports) and the map is told where it is.
import maplibreWorkerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?worker&url';
import { MAP_DEFAULT_CENTER, MAP_DEFAULT_ZOOM } from '#shared/constants';
import { formatNumber } from '#web/lib/format';
import type { LocalisationRow } from './api';
import { circleColor, circleRadius, MAP_LEGEND_COLORS } from './colors';
import regionsPath from './geo/regions.geojson?url';
import { MAP_LEGEND } from './texts';

/** Sea and nothing else: the bundled regions and the circles are drawn on top, with no network. */
const OFFLINE_STYLE: StyleSpecification = {
  version: 8,
  sources: {},
  layers: [{ id: 'sea', type: 'background', paint: { 'background-color': '#dbeafe' } }],
};

interface Hovered {
  longitude: number;
  latitude: number;
  designation: string;
  count: number;
}

export default function GeoMap({ rows, styleUrl }: { rows: LocalisationRow[]; styleUrl: string | null }) {
  // A tile style that fails before the map is up (the server checked it, but the browser may not reach
  // it) gives way to the offline style; later tile errors just leave the background showing.
  const [styleFailed, setStyleFailed] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const [regionsLoaded, setRegionsLoaded] = useState(false);
  const [hovered, setHovered] = useState<Hovered | null>(null);
  const offline = !styleUrl || styleFailed;
  // The GeoJSON is fetched by a web worker, which needs an absolute address.
  const regionsUrl = useMemo(() => new URL(regionsPath, window.location.href).href, []);

  const points = useMemo(() => {
    const max = rows.reduce((m, r) => Math.max(m, r.signalementCount), 0);
    return {
      type: 'FeatureCollection' as const,
      features: rows
        .filter((r) => r.latitude !== null && r.longitude !== null)
        .map((r) => ({
          type: 'Feature' as const,
          geometry: { type: 'Point' as const, coordinates: [r.longitude!, r.latitude!] },
          properties: {
            designation: r.designation,
            count: r.signalementCount,
            radius: circleRadius(r.signalementCount, max),
            color: circleColor(r.signalementCount, max),
          },
        })),
    };
  }, [rows]);

  const onHover = (event: MapLayerMouseEvent) => {
    const feature = event.features?.[0];
    if (!feature || feature.geometry.type !== 'Point') return setHovered(null);
    const [longitude, latitude] = feature.geometry.coordinates as [number, number];
    setHovered({
      longitude,
      latitude,
      designation: String(feature.properties.designation),
      count: Number(feature.properties.count),
    });
  };

  return (
    <div
      className="relative h-[420px] overflow-hidden rounded-box border border-base-300"
      data-testid="geo-map"
      data-style={offline ? 'offline' : 'online'}
      data-loaded={loaded}
      data-circles={points.features.length}
      data-regions={regionsLoaded ? 'loaded' : 'pending'}
    >
      <MapView
        initialViewState={{
          latitude: MAP_DEFAULT_CENTER.latitude,
          longitude: MAP_DEFAULT_CENTER.longitude,
          zoom: MAP_DEFAULT_ZOOM,
        }}
        mapStyle={offline ? OFFLINE_STYLE : styleUrl!}
        style={{ width: '100%', height: '100%' }}
        workerUrl={maplibreWorkerUrl}
        attributionControl={offline ? false : { compact: true }}
        interactiveLayerIds={['locations-circles']}
        onMouseMove={onHover}
        onMouseLeave={() => setHovered(null)}
        onLoad={() => setLoaded(true)}
        onSourceData={(event) => {
          if (event.sourceId === 'regions' && event.isSourceLoaded) setRegionsLoaded(true);
        }}
        onError={() => {
          if (!loaded && !offline) setStyleFailed(true);
        }}
      >
        <NavigationControl position="top-right" showCompass={false} />
        <Source id="regions" type="geojson" data={regionsUrl}>
          {offline && <Layer id="regions-fill" type="fill" paint={{ 'fill-color': '#f8fafc' }} />}
          <Layer id="regions-line" type="line" paint={{ 'line-color': '#94a3b8', 'line-width': 1 }} />
        </Source>
        <Source id="locations" type="geojson" data={points}>
          <Layer
            id="locations-circles"
            type="circle"
            layout={{ 'circle-sort-key': ['-', ['get', 'radius']] }}
            paint={{
              'circle-radius': ['get', 'radius'],
              'circle-color': ['get', 'color'],
              'circle-opacity': 0.75,
              'circle-stroke-width': 1,
              'circle-stroke-color': '#ffffff',
            }}
          />
        </Source>
        {hovered && (
          <Popup
            longitude={hovered.longitude}
            latitude={hovered.latitude}
            closeButton={false}
            closeOnClick={false}
            offset={12}
          >
            <strong>{hovered.designation}</strong>
            <br />
            {formatNumber(hovered.count)} signalement(s)
          </Popup>
        )}
      </MapView>
      <ul
        className="absolute bottom-2 left-2 flex flex-col gap-1 rounded-box bg-base-100/90 p-2 text-xs shadow"
        data-testid="map-legend"
        aria-label="Légende"
      >
        {MAP_LEGEND.map((label, i) => (
          <li key={label} className="flex items-center gap-2">
            <span
              className="inline-block size-3 rounded-full"
              style={{ backgroundColor: MAP_LEGEND_COLORS[i] }}
              aria-hidden="true"
            />
            {label}
          </li>
        ))}
      </ul>
    </div>
  );
}
