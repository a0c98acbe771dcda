import { useState } from 'react';
import { Link } from 'wouter';
import { PageHeader } from '#web/components/ui/page-header';
import type { Period } from '../api';
import { DistributionBlock } from './distribution-block';
import { PERIOD_LABELS, SeriesBlock, StatusBlock, SummaryBlock } from './summary-blocks';
import { ReceivedPerDayBlock, TopPartnersBlock, TopUsersBlock } from './top-blocks';

const PERIODS: Period[] = ['day', 'week', 'month', 'year'];

/** Period analysis (second reading of spec §2), every figure from the database; the month by default. */
export default function AnalysisPage() {
  const [period, setPeriod] = useState<Period>('month');
  return (
    <>
      <PageHeader
        title="Tableau de Bord"
        subtitle="Vue d'ensemble des plaintes"
        actions={
          <>
            <Link href="/dashboard" className="btn btn-ghost btn-sm">
              Tableau de bord
            </Link>
            <div className="join" role="group" aria-label="Période">
              {PERIODS.map((p) => (
                <button
                  key={p}
                  type="button"
                  className={`join-item btn btn-sm ${period === p ? 'btn-primary' : ''}`}
                  aria-pressed={period === p}
                  onClick={() => setPeriod(p)}
                >
                  {PERIOD_LABELS[p]}
                </button>
              ))}
            </div>
          </>
        }
      />
      {/* grid-cols-1 is minmax(0, 1fr): a wide table scrolls in its block instead of widening the page (the
          view was 399 px wide at 375 px). */}
      <div className="flex flex-col gap-6">
        <SummaryBlock period={period} />
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
          <SeriesBlock period={period} />
          <StatusBlock period={period} />
        </div>
        <DistributionBlock period={period} />
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
          <TopUsersBlock period={period} />
          <TopPartnersBlock period={period} />
        </div>
        <ReceivedPerDayBlock period={period} />
      </div>
    </>
  );
}
