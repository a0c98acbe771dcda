import { useQuery } from '@tanstack/react-query';
import { formatDate, formatDays, formatNumber, formatPercent } from '#web/lib/format';
import { dashboardApi, type Outputs, type Period } from '../api';
import { Block, messageOf } from '../block';
import { baseOptions, Chart } from '../chart';

type Summary = Outputs['overview']['summary'];
type Compared = Summary['totals']['received'];

export const PERIOD_LABELS: Record<Period, string> = {
  day: 'Jour',
  week: 'Semaine',
  month: 'Mois',
  year: 'Année',
};

/** '+25,0 %' against the previous period; null when there is nothing to compare with. */
export function change({ value, previous }: Compared): string | null {
  if (value === null || previous === null || previous === 0) return null;
  const ratio = (value - previous) / previous;
  return `${ratio > 0 ? '+' : ratio < 0 ? '−' : ''}${formatPercent(Math.abs(ratio))}`;
}

const TOTALS = [
  { key: 'received', label: 'Signalements reçus', good: 'neutral' },
  { key: 'treated', label: 'Traités', good: 'up' },
  { key: 'inProgress', label: 'En cours', good: 'down' },
  { key: 'closed', label: 'Clôturés', good: 'up' },
  { key: 'avgResolutionDays', label: 'Délai moyen de résolution', good: 'down' },
] as const;

function Total({
  label,
  compared,
  days,
  good,
}: {
  label: string;
  compared: Compared;
  days: boolean;
  good: 'up' | 'down' | 'neutral';
}) {
  const show = (n: number | null) => (n === null ? '—' : days ? formatDays(n) : formatNumber(n));
  const delta = change(compared);
  const rising = (compared.value ?? 0) > (compared.previous ?? 0);
  const tone =
    !delta || good === 'neutral'
      ? 'badge-ghost'
      : rising === (good === 'up')
        ? 'badge-success'
        : 'badge-error';
  return (
    <div className="rounded-box border border-base-300 p-3" data-testid="overview-total">
      <p className="text-sm text-base-content/70">{label}</p>
      <div className="flex items-baseline gap-2">
        <p className="text-2xl font-semibold tabular-nums" data-testid="overview-total-value">
          {show(compared.value)}
        </p>
        {delta && <span className={`badge badge-sm ${tone}`}>{delta}</span>}
      </div>
      <p className="text-xs text-base-content/70">Période précédente : {show(compared.previous)}</p>
    </div>
  );
}

const ALERT_CLASS = { urgent: 'alert-error', overdue: 'alert-warning', info: 'alert-info' } as const;

/** Totals of the period against the previous one, then the alerts that have reports. */
export function SummaryBlock({ period }: { period: Period }) {
  const query = useQuery(dashboardApi.overview.summary.queryOptions({ period }));
  const data = query.data;
  const title = data
    ? `Synthèse du ${formatDate(data.current.dateStart)} au ${formatDate(data.current.dateEnd)}`
    : 'Synthèse';
  return (
    <Block
      title={title}
      testId="overview-summary"
      query={query}
      errorText={messageOf(query.error)}
      isEmpty={false}
    >
      {() => {
        const alerts = data!.alerts.filter((a) => a.count > 0);
        return (
          <>
            <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-5">
              {TOTALS.map((t) => (
                <Total
                  key={t.key}
                  label={t.label}
                  compared={data!.totals[t.key]}
                  days={t.key === 'avgResolutionDays'}
                  good={t.good}
                />
              ))}
            </div>
            <p className="text-xs text-base-content/70">
              Comparaison avec le {formatDate(data!.previous.dateStart)} –{' '}
              {formatDate(data!.previous.dateEnd)}.
            </p>
            <div className="flex flex-col gap-2" data-testid="overview-alerts">
              {alerts.length === 0 && <p className="text-sm text-base-content/70">Aucune alerte</p>}
              {alerts.map((a) => (
                <div
                  key={a.id}
                  role="status"
                  className={`alert alert-soft ${ALERT_CLASS[a.type]}`}
                  data-testid={`alert-${a.id}`}
                >
                  {a.message}
                </div>
              ))}
            </div>
          </>
        );
      }}
    </Block>
  );
}

const STATUS = [
  { key: 'waiting', label: 'En attente', color: '#9ca3af' },
  { key: 'inProgress', label: 'En cours', color: '#f59e0b' },
  { key: 'resolved', label: 'Résolu', color: '#22c55e' },
] as const;

export function StatusBlock({ period }: { period: Period }) {
  const query = useQuery(dashboardApi.overview.summary.queryOptions({ period }));
  const status = query.data?.status;
  const total = status ? status.waiting + status.inProgress + status.resolved : 0;
  return (
    <Block
      title="Répartition par statut"
      testId="overview-status"
      query={query}
      errorText={messageOf(query.error)}
      isEmpty={total === 0}
    >
      {() => (
        <>
          <Chart
            type="donut"
            height={220}
            series={STATUS.map((s) => status![s.key])}
            options={baseOptions({
              labels: STATUS.map((s) => s.label),
              colors: STATUS.map((s) => s.color),
              legend: { show: false },
              dataLabels: { formatter: (v: number) => formatPercent(v / 100) },
            })}
          />
          <ul className="flex flex-col gap-1 text-sm">
            {STATUS.map((s) => (
              <li key={s.key} className="flex items-center gap-2" data-testid="status-item">
                <span
                  className="inline-block size-3 rounded-full"
                  style={{ backgroundColor: s.color }}
                  aria-hidden="true"
                />
                <span className="flex-1">{s.label}</span>
                <span className="tabular-nums">{formatNumber(status![s.key])}</span>
                <span className="w-16 text-right text-base-content/70 tabular-nums">
                  {formatPercent(status![s.key] / total)}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </Block>
  );
}

export function SeriesBlock({ period }: { period: Period }) {
  const query = useQuery(dashboardApi.overview.series.queryOptions({ period }));
  const points = query.data ?? [];
  const label = (day: string) => {
    const [y, m, d] = day.split('-');
    return period === 'year' ? y! : period === 'month' ? `${m}/${y}` : `${d}/${m}`;
  };
  return (
    <Block
      title="Évolution des signalements"
      testId="overview-series"
      className="lg:col-span-2"
      query={query}
      errorText={messageOf(query.error)}
      isEmpty={points.every((p) => p.complaints === 0)}
    >
      {() => (
        <Chart
          type="line"
          height={280}
          series={[
            { name: 'Reçus', data: points.map((p) => p.complaints) },
            { name: 'Traités', data: points.map((p) => p.resolved) },
          ]}
          options={baseOptions({
            colors: ['#3b82f6', '#22c55e'],
            stroke: { curve: 'smooth', width: 2 },
            xaxis: { categories: points.map((p) => label(p.date)) },
            yaxis: { min: 0, labels: { formatter: (v: number) => formatNumber(Math.round(v)) } },
            legend: { position: 'top' },
            // Room for the first month's label, which the chart rotates on a phone and would otherwise clip.
            grid: { padding: { left: 12 } },
          })}
        />
      )}
    </Block>
  );
}
