import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { MAP_TABLE_PAGE_SIZE } from '#shared/constants';
import { formatNumber, formatPercent } from '#web/lib/format';
import { dashboardApi, type DateRange, type LocalisationRow } from './api';
import { Block, BlockLoading, useErrorToast } from './block';
import type { MapLevel } from './dashboard-url';
import { BLOCK_ERRORS, EMPTY_TEXT, MAP_ATTRIBUTION, MAP_VIEWS } from './texts';

const GeoMap = lazy(() => import('./geo-map'));

type View = MapLevel;

/** Locations of the side table: most reports first (spec §2), by name within a count. */
export function sortedRows(rows: LocalisationRow[]): LocalisationRow[] {
  return [...rows].sort(
    (a, b) => b.signalementCount - a.signalementCount || a.designation.localeCompare(b.designation, 'fr'),
  );
}

function SideTable({
  rows,
  page,
  onPage,
}: {
  rows: LocalisationRow[];
  page: number;
  onPage: (page: number) => void;
}) {
  const total = rows.reduce((sum, r) => sum + r.signalementCount, 0);
  if (total === 0) {
    return (
      <p className="py-10 text-center text-sm text-base-content/70" data-testid="block-empty">
        {EMPTY_TEXT}
      </p>
    );
  }
  const sorted = sortedRows(rows);
  const shown = sorted.slice((page - 1) * MAP_TABLE_PAGE_SIZE, page * MAP_TABLE_PAGE_SIZE);
  return (
    <div className="flex flex-col gap-3">
      <table className="table table-sm" data-testid="map-table">
        <thead>
          <tr>
            <th>Localisation</th>
            <th className="text-right">Signalements</th>
            <th className="text-right">%</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((r) => (
            <tr key={r.id}>
              <td>{r.designation}</td>
              <td className="text-right tabular-nums">{formatNumber(r.signalementCount)}</td>
              <td className="text-right text-base-content/70 tabular-nums">
                {formatPercent(r.signalementCount / total)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager
        page={page}
        pages={Math.max(1, Math.ceil(sorted.length / MAP_TABLE_PAGE_SIZE))}
        onPage={onPage}
      />
    </div>
  );
}

/** A pager small enough for the column beside the map. */
function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  return (
    <nav
      className="flex items-center justify-end gap-2 text-sm"
      aria-label="Pages du tableau"
      data-testid="map-pagination"
    >
      <span className="text-base-content/70" data-testid="map-page">
        Page {page} sur {pages}
      </span>
      <div className="join">
        <button
          type="button"
          className="join-item btn btn-sm"
          aria-label="Page précédente"
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
        >
          ‹
        </button>
        <button
          type="button"
          className="join-item btn btn-sm"
          aria-label="Page suivante"
          disabled={page >= pages}
          onClick={() => onPage(page + 1)}
        >
          ›
        </button>
      </div>
    </nav>
  );
}

/** Reports by region, district or commune: circles on the map and a paged table beside it. */
export function MapBlock({
  range,
  view,
  onViewChange,
}: {
  range: DateRange | undefined;
  view: View;
  onViewChange: (view: View) => void;
}) {
  // The table goes back to page 1 whenever the view or the dates change.
  const pageKey = `${view}|${range?.dateStart ?? ''}|${range?.dateEnd ?? ''}`;
  const [paging, setPaging] = useState({ key: pageKey, page: 1 });
  const page = paging.key === pageKey ? paging.page : 1;
  const query = useQuery(dashboardApi.perLocalisation.queryOptions({ ...range, type: view }));
  const style = useQuery(dashboardApi.mapStyle.queryOptions(undefined, { staleTime: 5 * 60_000 }));
  useErrorToast(query, BLOCK_ERRORS.map.toast);

  const viewSwitch = (
    <div className="join" role="group" aria-label="Niveau de la carte">
      {MAP_VIEWS.map((v) => (
        <button
          key={v.type}
          type="button"
          className={`join-item btn btn-sm ${view === v.type ? 'btn-primary' : ''}`}
          aria-pressed={view === v.type}
          onClick={() => onViewChange(v.type)}
        >
          {v.label}
        </button>
      ))}
    </div>
  );

  return (
    <Block
      title="Carte des signalements"
      testId="map-block"
      query={query}
      errorText={BLOCK_ERRORS.map.text}
      isEmpty={false}
      actions={viewSwitch}
    >
      {() => (
        <div className="flex flex-col gap-2">
          <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
            <div className="lg:col-span-2">
              {/* A failed style check means the offline map, like an unset MAP_STYLE_URL. */}
              {style.isPending ? (
                <BlockLoading height="h-[420px]" />
              ) : (
                // Its own boundary: the side table shows without waiting for the map's code.
                <Suspense fallback={<BlockLoading height="h-[420px]" />}>
                  <GeoMap rows={query.data!} styleUrl={style.data?.styleUrl ?? null} />
                </Suspense>
              )}
            </div>
            <SideTable rows={query.data!} page={page} onPage={(p) => setPaging({ key: pageKey, page: p })} />
          </div>
          <p className="text-xs text-base-content/70" data-testid="map-attribution">
            {MAP_ATTRIBUTION}
          </p>
        </div>
      )}
    </Block>
  );
}
