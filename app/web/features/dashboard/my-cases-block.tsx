import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { useWhoAmI } from '#web/features/auth/use-who-am-i';
import { myCasesPath, myOpenCasesPath, NOT_ASSIGNED } from '#web/features/signalement/list/list-url';
import { formatNumber } from '#web/lib/format';
import { useTRPC } from '#web/lib/trpc';

export const MY_CASES_TEXTS = {
  region: 'Mes dossiers',
  mine: 'Mes dossiers ouverts',
  unassigned: 'Signalements ouverts non assignés',
  mineOverdue: 'Mes dossiers en retard',
  allOverdue: 'Signalements en retard',
} as const;

/**
 * « Mes dossiers » (docs/decisions/0028): my open reports and my overdue ones, and for administrators the
 * open reports nobody has and every overdue report (docs/decisions/0032); each card opens the list so filtered
 * (the open ones with `etat=ouvert`, so the card's number is the list's total).
 */
export function MyCasesBlock() {
  const trpc = useTRPC();
  const whoAmI = useWhoAmI();
  const query = useQuery(trpc.dashboard.myCases.queryOptions());
  if (!query.data || !whoAmI.user) return null;
  const cards = [
    {
      key: 'mine',
      label: MY_CASES_TEXTS.mine,
      value: query.data.ouverts,
      href: myOpenCasesPath(whoAmI.user.code),
    },
    {
      key: 'mine-overdue',
      label: MY_CASES_TEXTS.mineOverdue,
      value: query.data.enRetard,
      href: `${myCasesPath(whoAmI.user.code)}&echeance=en_retard`,
    },
    ...(query.data.nonAssignes === null
      ? []
      : [
          {
            key: 'unassigned',
            label: MY_CASES_TEXTS.unassigned,
            value: query.data.nonAssignes,
            href: `/signalement/list?assigne=${NOT_ASSIGNED}&etat=ouvert`,
          },
        ]),
    ...(query.data.enRetardTous === null
      ? []
      : [
          {
            key: 'all-overdue',
            label: MY_CASES_TEXTS.allOverdue,
            value: query.data.enRetardTous,
            href: '/signalement/list?echeance=en_retard',
          },
        ]),
  ];
  return (
    <section aria-label={MY_CASES_TEXTS.region} data-testid="my-cases-block">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {cards.map((card) => (
          <Link
            key={card.key}
            href={card.href}
            className="card border border-l-4 border-base-300 border-l-info bg-base-100 shadow-sm hover:bg-base-200"
            data-testid={`my-cases-${card.key}`}
          >
            <span className="card-body gap-1 p-4">
              <span className="text-sm text-base-content/70">{card.label}</span>
              <span className="text-3xl font-semibold tabular-nums" data-testid="my-cases-value">
                {formatNumber(card.value)}
              </span>
            </span>
          </Link>
        ))}
      </div>
    </section>
  );
}
