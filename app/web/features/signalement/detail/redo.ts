// A change of a report refused as stale in the outbox, handed to the report's page to be redone there
// (docs/decisions/0048-offline-store.md): its values are put over the report's current ones as unsaved
// changes, to be checked and saved. In this tab's memory only, never in any storage.
import type { SignalementPatchInput } from '#shared/schemas/signalements';

const waiting = new Map<string, SignalementPatchInput>();

export function redoOnReport(code: string, patch: SignalementPatchInput): void {
  waiting.set(code, patch);
}

/** The values to redo on this report, if any (read at the page's first render). */
export const peekRedo = (code: string): SignalementPatchInput | undefined => waiting.get(code);

/** Taken by the page: a later visit shows the report as it is. */
export function forgetRedo(code: string): void {
  waiting.delete(code);
}
