import { useQuery } from '@tanstack/react-query';
import { formatNumber } from '#web/lib/format';
import { dashboardApi, type DateRange } from './api';
import { Block, useErrorToast } from './block';
import { baseOptions, Chart } from './chart';
import { BLOCK_ERRORS, perDaySummary } from './texts';

export interface DaySeries {
  total: number;
  average: number;
  maximum: number;
  points: Array<{ x: number; y: number }>;
}

/** Totals of a per-day answer; days are UTC days, placed at UTC midnight on a UTC time axis. */
export function daySeries(perDay: Record<string, number>): DaySeries {
  const entries = Object.entries(perDay).sort(([a], [b]) => a.localeCompare(b));
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  return {
    total,
    average: entries.length ? total / entries.length : 0,
    maximum: entries.reduce((max, [, n]) => Math.max(max, n), 0),
    points: entries.map(([day, n]) => ({ x: Date.parse(`${day}T00:00:00Z`), y: n })),
  };
}

export function PerDayChart({
  perDay,
  name,
  type = 'area',
}: {
  perDay: Record<string, number>;
  name: string;
  type?: 'area' | 'bar';
}) {
  const series = daySeries(perDay);
  return (
    <Chart
      type={type}
      height={280}
      series={[{ name, data: series.points }]}
      options={baseOptions({
        colors: ['#3b82f6'],
        dataLabels: { enabled: false },
        stroke: { curve: 'smooth', width: 2 },
        xaxis: { type: 'datetime', labels: { datetimeUTC: true } },
        yaxis: {
          labels: { formatter: (v: number) => formatNumber(Math.round(v)) },
          min: 0,
          forceNiceScale: true,
        },
        tooltip: { x: { format: 'dd/MM/yyyy' } },
      })}
    />
  );
}

/** 'Signalements par jour' with its summary line (spec §2). */
export function PerDayBlock({ range }: { range: DateRange | undefined }) {
  const query = useQuery(dashboardApi.perDay.queryOptions(range));
  useErrorToast(query, BLOCK_ERRORS.perDay.toast);
  const series = query.data ? daySeries(query.data) : null;
  return (
    <Block
      title="Signalements par jour"
      testId="per-day-block"
      query={query}
      errorText={BLOCK_ERRORS.perDay.text}
      isEmpty={!series || series.total === 0}
    >
      {() => (
        <>
          <p className="text-sm text-base-content/70" data-testid="per-day-summary">
            {perDaySummary(
              formatNumber(series!.total),
              formatNumber(Math.round(series!.average * 10) / 10),
              formatNumber(series!.maximum),
            )}
          </p>
          <PerDayChart perDay={query.data!} name="Signalements" />
        </>
      )}
    </Block>
  );
}
