import { useQuery } from '@tanstack/react-query';
import { Loading } from '#web/components/ui/loading';
import { HistoryIcon } from '#web/components/ui/more-icons';
import { formatDateTime } from '#web/lib/format';
import { useTRPC } from '#web/lib/trpc';
import { DetailCard } from './detail-card';
import { actionLabel, historyLines } from './historique-format';

/** An entry about a protected source: the server sends no values (need to know, docs/decisions/0015). */
export const MASKED_TEXT =
  'Source protégée : détails réservés au créateur du signalement et aux administrateurs.';

/** 'Historique': the recorded changes, newest first (the server's order). */
export function HistoriquePanel({ code }: { code: string }) {
  const trpc = useTRPC();
  const history = useQuery(trpc.signalements.historique.queryOptions({ code }));
  return (
    <DetailCard
      title={
        <span className="flex items-center gap-2">
          <HistoryIcon /> Historique
        </span>
      }
      data-testid="historique-panel"
    >
      {history.isPending ? (
        <Loading />
      ) : history.isError ? (
        <p className="text-sm text-error">Impossible de charger l'historique.</p>
      ) : history.data.length === 0 ? (
        <p className="text-sm text-base-content/70">Aucune modification enregistrée.</p>
      ) : (
        // Focusable, so the keyboard can scroll a long history (accessibility).
        <ol
          className="flex max-h-[32rem] flex-col gap-3 overflow-y-auto rounded-field pr-1 focus-visible:outline-2 focus-visible:outline-primary"
          aria-label="Historique des modifications"
          tabIndex={0}
          data-testid="historique-list"
        >
          {history.data.map((entry) => {
            const lines = historyLines(entry.action, entry.changes);
            return (
              <li key={entry.id} className="border-l-2 border-primary/40 pl-3" data-testid="historique-entry">
                <p className="text-sm font-medium">{actionLabel(entry.action)}</p>
                <p className="text-xs text-base-content/70">
                  {formatDateTime(entry.at)}
                  {entry.user ? ` · ${entry.user.nomPrenom}` : ''}
                </p>
                {entry.masque ? (
                  <p className="mt-1 text-xs text-base-content/70" data-testid="historique-masque">
                    {MASKED_TEXT}
                  </p>
                ) : (
                  lines.length > 0 && (
                    <ul className="mt-1 flex flex-col gap-0.5 text-xs">
                      {lines.map((line) => (
                        <li key={line.field} className="break-words">
                          <span className="font-medium">{line.label}</span> :{' '}
                          <span className="text-base-content/70 line-through decoration-base-content/30">
                            {line.from}
                          </span>{' '}
                          → <span>{line.to}</span>
                        </li>
                      ))}
                    </ul>
                  )
                )}
              </li>
            );
          })}
        </ol>
      )}
    </DetailCard>
  );
}
