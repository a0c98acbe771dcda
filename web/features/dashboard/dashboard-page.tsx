import { useState } from 'react';
import { Link } from 'wouter';
import { PageHeader } from '../../components/ui/page-header';
import { AccessAlerts } from '../journal/access-alerts';
import type { DateRange } from './api';
import type { IsoRange } from './calendar';
import { DateRangePicker } from './date-range-picker';
import { CanalBlock, NiveauBlock, ResultatBlock, SubjectBlock } from './distribution-blocks';
import { MapBlock } from './map-block';
import { MetricsBlock } from './metrics-block';
import { PerDayBlock } from './per-day-block';

/** The live dashboard (first reading of spec §2); every block asks for its own data. */
export default function DashboardPage() {
  const [range, setRange] = useState<IsoRange | null>(null);
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
            <DateRangePicker value={range} onChange={setRange} />
          </>
        }
      />
      <div className="flex flex-col gap-6">
        <AccessAlerts />
        <MetricsBlock range={input} />
        <PerDayBlock range={input} />
        <MapBlock range={input} />
        <div className="grid gap-6 xl:grid-cols-2">
          <CanalBlock range={input} />
          <SubjectBlock range={input} />
          <NiveauBlock range={input} />
          <ResultatBlock range={input} />
        </div>
      </div>
    </>
  );
}
