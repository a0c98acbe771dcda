import { useQuery } from '@tanstack/react-query';
import { Badge } from '#web/components/ui/badge';
import { formatDays, formatNumber } from '#web/lib/format';
import { dashboardApi, type Outputs, type Period } from '../api';
import { Block, messageOf } from '../block';
import { PerDayChart } from '../per-day-block';

type TopUser = Outputs['overview']['top']['users'][number];

/**
 * The staff handling reports (docs/decisions/0012): reports handled in the period, open and overdue now, and
 * the mean days to close; the server lists the most overdue first.
 */
export function TopUsersTable({ users }: { users: readonly TopUser[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="table table-sm" data-testid="top-users-table">
        <thead>
          <tr>
            <th>Utilisateur</th>
            <th className="text-right">Traités</th>
            <th className="text-right">Ouverts</th>
            <th className="text-right">En retard</th>
            <th className="text-right">Délai moyen</th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.email} data-testid="top-user">
              <td className="whitespace-normal">
                <p className="font-medium">
                  {u.name} <span className="badge badge-ghost badge-sm">{u.role}</span>
                </p>
                <p className="text-xs break-all text-base-content/70">{u.email}</p>
              </td>
              <td className="text-right tabular-nums">{formatNumber(u.complaintsHandled)}</td>
              <td className="text-right tabular-nums">{formatNumber(u.openCases)}</td>
              <td className="text-right tabular-nums" data-testid="top-user-overdue">
                {u.overdueCases > 0 ? (
                  <span className="badge badge-warning badge-sm">{formatNumber(u.overdueCases)}</span>
                ) : (
                  formatNumber(0)
                )}
              </td>
              <td className="text-right tabular-nums">
                {u.avgResolutionTime === null ? '—' : formatDays(u.avgResolutionTime)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function TopUsersBlock({ period }: { period: Period }) {
  const query = useQuery(dashboardApi.overview.top.queryOptions({ period }));
  const users = query.data?.users ?? [];
  return (
    <Block
      title="Utilisateurs les plus actifs"
      testId="overview-top-users"
      query={query}
      errorText={messageOf(query.error)}
      isEmpty={users.length === 0}
    >
      {() => <TopUsersTable users={users} />}
    </Block>
  );
}

export function TopPartnersBlock({ period }: { period: Period }) {
  const query = useQuery(dashboardApi.overview.top.queryOptions({ period }));
  const partners = query.data?.partners ?? [];
  return (
    <Block
      title="Partenaires principaux"
      testId="overview-top-partners"
      query={query}
      errorText={messageOf(query.error)}
      isEmpty={partners.length === 0}
    >
      {() => (
        <div className="overflow-x-auto">
          <table className="table table-sm" data-testid="top-partners-table">
            <thead>
              <tr>
                <th>Partenaire</th>
                <th className="text-right">Reçus</th>
                <th className="text-right">Délai moyen</th>
              </tr>
            </thead>
            <tbody>
              {partners.map((p) => (
                <tr key={p.code}>
                  <td>
                    <Badge color={p.color} size="sm">
                      {p.code}
                    </Badge>
                    <p className="text-xs text-base-content/70">{p.designation}</p>
                  </td>
                  <td className="text-right tabular-nums">{formatNumber(p.complaintsReceived)}</td>
                  <td className="text-right tabular-nums">
                    {p.avgResolutionTime === null ? '—' : formatDays(p.avgResolutionTime)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Block>
  );
}

export function ReceivedPerDayBlock({ period }: { period: Period }) {
  const query = useQuery(dashboardApi.overview.perDay.queryOptions({ period }));
  const total = Object.values(query.data ?? {}).reduce((sum, n) => sum + n, 0);
  return (
    <Block
      title="Signalements Reçus par Jour"
      testId="overview-per-day"
      query={query}
      errorText={messageOf(query.error)}
      isEmpty={total === 0}
    >
      {() => <PerDayChart perDay={query.data!} name="Signalements reçus" type="bar" />}
    </Block>
  );
}
