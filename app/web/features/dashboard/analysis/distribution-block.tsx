import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatNumber, formatPercent } from '#web/lib/format';
import { dashboardApi, type Dimension, type Period } from '../api';
import { Block, messageOf } from '../block';
import { baseOptions, Chart } from '../chart';

const DIMENSIONS: Array<{ key: Dimension; label: string }> = [
  { key: 'region', label: 'Région' },
  { key: 'district', label: 'District' },
  { key: 'commune', label: 'Commune' },
  { key: 'subject', label: 'Objet' },
  { key: 'canal', label: 'Canal' },
  { key: 'project', label: 'Projet' },
];

/** The ten most frequent regions, districts, communes, subjects, channels or projects of the period. */
export function DistributionBlock({ period }: { period: Period }) {
  const [dimension, setDimension] = useState<Dimension>('region');
  const query = useQuery(dashboardApi.overview.distribution.queryOptions({ period, dimension }));
  const items = query.data?.items ?? [];
  const total = query.data?.total ?? 0;
  const tabs = (
    <div role="tablist" className="tabs tabs-box tabs-sm" aria-label="Répartition">
      {DIMENSIONS.map((d) => (
        <button
          key={d.key}
          type="button"
          role="tab"
          aria-selected={dimension === d.key}
          className={`tab ${dimension === d.key ? 'tab-active' : ''}`}
          onClick={() => setDimension(d.key)}
        >
          {d.label}
        </button>
      ))}
    </div>
  );
  return (
    <Block
      title="Répartition des signalements"
      testId="overview-distribution"
      query={query}
      errorText={messageOf(query.error)}
      isEmpty={items.length === 0}
      actions={tabs}
    >
      {() => (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
          <Chart
            type="bar"
            height={Math.max(220, items.length * 32 + 60)}
            series={[{ name: 'Signalements', data: items.map((i) => i.count) }]}
            options={baseOptions({
              plotOptions: { bar: { horizontal: true, borderRadius: 3, barHeight: '65%' } },
              colors: ['#0ea5e9'],
              xaxis: {
                categories: items.map((i) => i.designation),
                labels: { formatter: (v: string) => formatNumber(Number(v)) },
              },
              dataLabels: { enabled: true, formatter: (v: number) => formatNumber(v) },
            })}
          />
          <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Tableau de la répartition">
            <table className="table table-sm" data-testid="distribution-table">
              <thead>
                <tr>
                  <th>{DIMENSIONS.find((d) => d.key === dimension)!.label}</th>
                  <th className="text-right">Signalements</th>
                  <th className="text-right">% des reçus</th>
                </tr>
              </thead>
              <tbody>
                {items.map((i) => (
                  <tr key={i.code}>
                    <td>{i.designation}</td>
                    <td className="text-right tabular-nums">{formatNumber(i.count)}</td>
                    <td className="text-right text-base-content/70 tabular-nums">
                      {formatPercent(total ? i.count / total : 0)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </Block>
  );
}
