import { Link, useLocation, useSearch } from 'wouter';
import { PageHeader } from '#web/components/ui/page-header';
import { AccessAlerts } from '../journal/access-alerts';
import type { DateRange } from './api';
import { dashboardSearchString, parseDashboardSearch, type DashboardState } from './dashboard-url';
import { DateRangePicker } from './date-range-picker';
import { CanalBlock, NiveauBlock, ResultatBlock, SubjectBlock } from './distribution-blocks';
import { MapBlock } from './map-block';
import { MetricsBlock } from './metrics-block';
import { MyCasesBlock } from './my-cases-block';
import { PerDayBlock } from './per-day-block';

const DASHBOARD_PATH = '/dashboard';

/**
 * The live dashboard (first reading of spec §2); every block asks for its own data. The range and the
 * map's level live in the address bar: each change is a history entry.
 */
export default function DashboardPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const state = parseDashboardSearch(search);
  const update = (change: Partial<DashboardState>) => {
    const query = dashboardSearchString({ ...parseDashboardSearch(window.location.search), ...change });
    navigate(query ? `${DASHBOARD_PATH}?${query}` : DASHBOARD_PATH);
  };
  const { range } = state;
  const input: DateRange | undefined = range ? { dateStart: range.start, dateEnd: range.end } : undefined;
  return (
    <>
      <PageHeader
        title="Tableau de bord"
        actions={
          <>
            <Link href="/dashboard/analyse" className="btn btn-ghost btn-sm">
              Vue d&apos;ensemble des plaintes
            </Link>
            <DateRangePicker value={range} onChange={(next) => update({ range: next })} />
          </>
        }
      />
      <div className="flex flex-col gap-6">
        <AccessAlerts />
        <MyCasesBlock />
        <MetricsBlock range={input} />
        <PerDayBlock range={input} />
        <MapBlock range={input} view={state.view} onViewChange={(view) => update({ view })} />
        <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
          <CanalBlock range={input} />
          <SubjectBlock range={input} />
          <NiveauBlock range={input} />
          <ResultatBlock range={input} />
        </div>
      </div>
    </>
  );
}
