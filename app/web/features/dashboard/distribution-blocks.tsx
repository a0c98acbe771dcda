import { useQuery } from '@tanstack/react-query';
import { formatNumber, formatPercent } from '#web/lib/format';
import { dashboardApi, type DateRange } from './api';
import { Block, messageOf, useErrorToast } from './block';
import { baseOptions, Chart } from './chart';
import { channelColor, resultColor } from './colors';
import { BLOCK_ERRORS } from './texts';

interface Slice {
  label: string;
  count: number;
  color: string;
}

const share = (count: number, total: number) => formatPercent(total ? count / total : 0);

/** Counts and shares (one decimal) beside a chart, for readers and for tests. */
function Legend({ slices }: { slices: Slice[] }) {
  const total = slices.reduce((sum, s) => sum + s.count, 0);
  return (
    <ul className="flex flex-col gap-1 text-sm" data-testid="distribution-legend">
      {slices.map((s) => (
        <li key={s.label} className="flex items-center gap-2" data-testid="legend-item">
          <span
            className="inline-block size-3 shrink-0 rounded-full"
            style={{ backgroundColor: s.color }}
            aria-hidden="true"
          />
          <span className="min-w-0 flex-1 truncate">{s.label}</span>
          <span className="tabular-nums">{formatNumber(s.count)}</span>
          <span className="w-16 text-right text-base-content/70 tabular-nums">{share(s.count, total)}</span>
        </li>
      ))}
    </ul>
  );
}

function PieWithLegend({ slices, donut = false }: { slices: Slice[]; donut?: boolean }) {
  const shown = slices.filter((s) => s.count > 0);
  return (
    <div className="grid grid-cols-1 items-center gap-4 sm:grid-cols-2">
      <Chart
        type={donut ? 'donut' : 'pie'}
        height={240}
        series={shown.map((s) => s.count)}
        options={baseOptions({
          labels: shown.map((s) => s.label),
          colors: shown.map((s) => s.color),
          legend: { show: false },
          dataLabels: { formatter: (value: number) => formatPercent(value / 100) },
          tooltip: { y: { formatter: (value: number) => formatNumber(value) } },
        })}
      />
      <Legend slices={slices} />
    </div>
  );
}

export function CanalBlock({ range }: { range: DateRange | undefined }) {
  const query = useQuery(dashboardApi.perCanal.queryOptions(range));
  useErrorToast(query, BLOCK_ERRORS.canal.toast);
  const slices = (query.data ?? []).map((c, i) => ({
    label: c.designation,
    count: c.signalementCount,
    color: channelColor(i),
  }));
  return (
    <Block
      title="Répartition par canal principal"
      testId="canal-block"
      query={query}
      errorText={BLOCK_ERRORS.canal.text}
      isEmpty={slices.every((s) => s.count === 0)}
    >
      {() => <PieWithLegend slices={slices} donut />}
    </Block>
  );
}

/** Subjects with at least one report, most frequent first (spec §9). */
export function SubjectBlock({ range }: { range: DateRange | undefined }) {
  const query = useQuery(dashboardApi.perSubject.queryOptions(range));
  const rows = (query.data ?? []).filter((s) => s.count > 0).sort((a, b) => b.count - a.count);
  return (
    <Block
      title="Signalements par objet"
      testId="subject-block"
      query={query}
      errorText={messageOf(query.error)}
      isEmpty={rows.length === 0}
    >
      {() => (
        <Chart
          type="bar"
          height={Math.max(200, rows.length * 36 + 60)}
          series={[{ name: 'Signalements', data: rows.map((s) => s.count) }]}
          options={baseOptions({
            plotOptions: { bar: { horizontal: true, borderRadius: 3, barHeight: '65%' } },
            colors: ['#6366f1'],
            xaxis: {
              categories: rows.map((s) => s.sujet.designation),
              // Four steps at most: on a phone, six tick labels ran into each other.
              tickAmount: 4,
              labels: { formatter: (v: string) => formatNumber(Number(v)), hideOverlappingLabels: true },
            },
            dataLabels: { enabled: true, formatter: (v: number) => formatNumber(v) },
            tooltip: { y: { formatter: (v: number) => formatNumber(v) } },
          })}
        />
      )}
    </Block>
  );
}

export function NiveauBlock({ range }: { range: DateRange | undefined }) {
  const query = useQuery(dashboardApi.perNiveau.queryOptions(range));
  const slices = (query.data ?? []).map((n) => ({
    label: n.niv.designation,
    count: n.count,
    color: n.niv.color,
  }));
  return (
    <Block
      title="Répartition par niveau"
      testId="niveau-block"
      query={query}
      errorText={messageOf(query.error)}
      isEmpty={slices.every((s) => s.count === 0)}
    >
      {() => <PieWithLegend slices={slices} />}
    </Block>
  );
}

export function ResultatBlock({ range }: { range: DateRange | undefined }) {
  const query = useQuery(dashboardApi.perResultat.queryOptions(range));
  const slices = (query.data ?? []).map((r) => ({
    label: r.result.designation,
    count: r.count,
    color: resultColor(r.result.code),
  }));
  return (
    <Block
      title="Répartition par résultat"
      testId="resultat-block"
      query={query}
      errorText={messageOf(query.error)}
      isEmpty={slices.every((s) => s.count === 0)}
    >
      {() => <PieWithLegend slices={slices} />}
    </Block>
  );
}
