import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import type { SignalementDto } from '#shared/dto/signalements';
import type { SignalementPatchInput } from '#shared/schemas/signalements';
import { EditConflictTable, useDesignations } from '#web/features/signalement/detail/edit-conflict-dialog';
import { redoOnReport } from '#web/features/signalement/detail/redo';
import type { OutboxConflict as Conflict, OutboxEntry } from '#web/lib/offline/outbox';
import { outbox } from '#web/lib/offline/runtime';
import { useTRPC } from '#web/lib/trpc';
import { OFFLINE_TEXT } from './offline-text';

/** The report and values of a queued signalements.update (its input as the caller gave it). */
function updateOf(input: unknown): { code: string; patch: SignalementPatchInput } | null {
  if (!input || typeof input !== 'object') return null;
  const { code, patch } = input as { code?: unknown; patch?: unknown };
  if (typeof code !== 'string' || !patch || typeof patch !== 'object') return null;
  return { code, patch: patch as SignalementPatchInput };
}

/**
 * A queued edit refused as stale (docs/decisions/0048-offline-store.md): the online conflict dialog's table
 * (« Votre valeur », « Valeur actuelle » per field), then « Ouvrir le signalement », which takes the change
 * out of the queue and opens the report as it is now with the user's values over it, unsaved, to redo the
 * change, or « Abandonner ».
 */
export function OutboxConflict({
  entry,
  conflict,
  onDiscard,
  onOpened,
}: {
  entry: OutboxEntry;
  conflict: Conflict;
  onDiscard: () => void;
  onOpened: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const update = updateOf(entry.input);
  const report = update
    ? queryClient.getQueryData<SignalementDto>(trpc.signalements.get.queryKey({ code: update.code }))
    : undefined;
  const names = useDesignations(report?.projects);

  const open = async () => {
    if (!update) return;
    redoOnReport(update.code, update.patch);
    void outbox.discard(entry.id);
    // The page waits for the report as the server has it now (the kept copy is the one before the conflict);
    // offline (the link dropped again) it shows the kept copy, and a save there waits and is checked again.
    const reportQuery = { queryKey: trpc.signalements.get.queryKey({ code: update.code }) };
    if (navigator.onLine) await queryClient.resetQueries(reportQuery);
    else void queryClient.invalidateQueries(reportQuery);
    onOpened();
    navigate(`/signalement/detail/${encodeURIComponent(update.code)}`);
  };

  return (
    <div className="mt-2 flex flex-col gap-2" data-testid="outbox-conflict">
      <EditConflictTable conflict={conflict} names={names} />
      {update && <p className="text-sm">{OFFLINE_TEXT.conflictHelp}</p>}
      <div className="flex flex-wrap gap-2">
        {update && (
          <button type="button" className="btn btn-sm btn-primary" onClick={() => void open()}>
            {OFFLINE_TEXT.openReport}
          </button>
        )}
        <button type="button" className="btn btn-sm btn-error btn-outline" onClick={onDiscard}>
          {OFFLINE_TEXT.discard}
        </button>
      </div>
    </div>
  );
}
