// How a report's handling deadline reads (docs/decisions/0032-deadlines.md): its due day and today, both
// business days of the tab's calendar, give « En retard de 2 jours », « Échéance aujourd'hui » or « J-3 ».
import { dayNumber } from '#shared/calendar';

export type EcheanceState =
  { kind: 'none' } | { kind: 'overdue'; days: number } | { kind: 'today' } | { kind: 'left'; days: number };

/** The state of a due day ('yyyy-MM-dd', or null: no deadline) on the day `today` ('yyyy-MM-dd'). */
export function echeanceState(echeance: string | null, today: string): EcheanceState {
  if (!echeance) return { kind: 'none' };
  const days = dayNumber(echeance) - dayNumber(today);
  if (days < 0) return { kind: 'overdue', days: -days };
  if (days === 0) return { kind: 'today' };
  return { kind: 'left', days };
}

const daysText = (n: number) => `${n} jour${n > 1 ? 's' : ''}`;

/** The short text of the list: « J-3 », « Aujourd'hui », « Retard : 2 j ». */
export function echeanceShort(state: EcheanceState): string {
  switch (state.kind) {
    case 'overdue':
      return `Retard : ${daysText(state.days)}`;
    case 'today':
      return "Aujourd'hui";
    case 'left':
      return `J-${state.days}`;
    default:
      return '';
  }
}

/** The sentence of the detail: « En retard de 2 jours », « Échéance aujourd'hui », « J-3 : 3 jours restants ». */
export function echeanceSentence(state: EcheanceState): string {
  switch (state.kind) {
    case 'overdue':
      return `En retard de ${daysText(state.days)}`;
    case 'today':
      return "Échéance aujourd'hui";
    case 'left':
      return `J-${state.days} : ${daysText(state.days)} restant${state.days > 1 ? 's' : ''}`;
    default:
      return 'Aucune échéance';
  }
}

/** 'yyyy-MM-dd' as the screens write days: dd/MM/yyyy. */
export const formatDay = (day: string) => day.split('-').reverse().join('/');
