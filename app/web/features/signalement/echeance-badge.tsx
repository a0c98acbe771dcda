import { Badge } from '#web/components/ui/badge';
import { businessToday } from '#web/lib/format';
import { echeanceSentence, echeanceShort, echeanceState, formatDay } from './echeance';

/**
 * The list's « Échéance » cell (docs/decisions/0032): the due day and, while the report is open, an « En
 * retard » badge or the days left.
 */
export function EcheanceCell({ echeance }: { echeance: string | null }) {
  if (!echeance) return <span className="text-base-content/70">Aucune</span>;
  const state = echeanceState(echeance, businessToday());
  return (
    <span className="flex flex-col items-start gap-0.5" data-testid="echeance-cell">
      <span className="whitespace-nowrap text-xs">{formatDay(echeance)}</span>
      {state.kind === 'overdue' ? (
        <Badge tone="red" size="sm" data-testid="echeance-en-retard" title={echeanceShort(state)}>
          En retard
        </Badge>
      ) : (
        <span className="whitespace-nowrap text-xs text-base-content/70">{echeanceShort(state)}</span>
      )}
    </span>
  );
}

/**
 * The detail's « Échéance » (docs/decisions/0032): the due day and « J-3 : 3 jours restants », « Échéance
 * aujourd'hui » or an « En retard » badge with « En retard de 2 jours »; « Aucune échéance » without one.
 */
export function EcheanceValue({ echeance }: { echeance: string | null }) {
  const state = echeanceState(echeance, businessToday());
  if (!echeance) return <span data-testid="echeance-value">{echeanceSentence(state)}</span>;
  return (
    <span className="flex flex-wrap items-center gap-1.5" data-testid="echeance-value">
      <span>{formatDay(echeance)}</span>
      {state.kind === 'overdue' && (
        <Badge tone="red" size="sm" data-testid="echeance-en-retard">
          En retard
        </Badge>
      )}
      <span className={state.kind === 'overdue' ? 'text-red-800' : 'text-base-content/70'}>
        {echeanceSentence(state)}
      </span>
    </span>
  );
}
