import type { StatutKind } from '#shared/constants';

export interface TreatmentState {
  isTreated: boolean;
  closeAt: Date | null;
}

/**
 * What choosing a statut does to a report's treatment state. This is the single definition behind
 * the dashboard's Traité / En cours / Clôturé counts:
 * - kind 'treated' sets isTreated (and clears a former closeAt: the report is reopened as treated);
 * - kind 'closed' sets isTreated and closeAt (kept if it was already closed);
 * - kind 'open', or no statut, clears both.
 */
export function applyStatutKind(kind: StatutKind | null, current: TreatmentState, now: Date): TreatmentState {
  switch (kind) {
    case 'treated':
      return { isTreated: true, closeAt: null };
    case 'closed':
      return { isTreated: true, closeAt: current.closeAt ?? now };
    default:
      return { isTreated: false, closeAt: null };
  }
}
