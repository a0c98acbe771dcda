import { useQuery } from '@tanstack/react-query';
import { formatNumber, formatPercent } from '#web/lib/format';
import { dashboardApi, type DateRange } from './api';
import { BlockLoading, useErrorToast } from './block';
import { BLOCK_ERRORS, METRIC_LABELS } from './texts';

const CARDS = [
  { key: 'total', tone: 'border-l-primary' },
  { key: 'treated', tone: 'border-l-success' },
  { key: 'inProgress', tone: 'border-l-warning' },
  { key: 'closed', tone: 'border-l-neutral' },
] as const;

/** The four key-metric cards; treated, in progress and closed also show their share of the total. */
export function MetricsBlock({ range }: { range: DateRange | undefined }) {
  const query = useQuery(dashboardApi.keyMetrics.queryOptions(range));
  useErrorToast(query, BLOCK_ERRORS.metrics.toast);
  const state = query.isPending ? 'loading' : query.isError ? 'error' : 'ready';
  return (
    <section aria-label="Indicateurs clés" data-testid="metrics-block" data-state={state}>
      {query.isError ? (
        <div role="alert" className="alert alert-error alert-soft" data-testid="block-error">
          {BLOCK_ERRORS.metrics.text}
        </div>
      ) : (
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
          {CARDS.map(({ key, tone }) => (
            <div
              key={key}
              className={`card border border-l-4 border-base-300 bg-base-100 shadow-sm ${tone}`}
              data-testid={`metric-${key}`}
            >
              <div className="card-body gap-1 p-4">
                <p className="text-sm text-base-content/70">{METRIC_LABELS[key]}</p>
                {query.data ? (
                  <>
                    <p className="text-3xl font-semibold tabular-nums" data-testid="metric-value">
                      {formatNumber(query.data[key])}
                    </p>
                    <p className="text-xs text-base-content/70">
                      {key === 'total'
                        ? '\u00a0'
                        : `${formatPercent(query.data.total ? query.data[key] / query.data.total : 0)} du total`}
                    </p>
                  </>
                ) : (
                  <BlockLoading height="h-14" />
                )}
              </div>
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
