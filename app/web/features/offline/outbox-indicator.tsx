import { useState } from 'react';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog';
import { Dialog } from '#web/components/ui/dialog';
import { formatDateTime } from '#web/lib/format';
import { useOutbox } from '#web/lib/offline/hooks';
import { describeChange } from '#web/lib/offline/procedures';
import { outbox } from '#web/lib/offline/runtime';
import { OFFLINE_TEXT } from './offline-text';
import { OutboxConflict } from './outbox-conflict';

/** « N modifications en attente » in the top bar, opening the panel of the outbox; nothing when empty. */
export function OutboxIndicator() {
  const entries = useOutbox();
  const [open, setOpen] = useState(false);
  const [discarding, setDiscarding] = useState<string | null>(null);
  if (entries.length === 0 && !open) return null;
  const refused = entries.some((e) => e.refused !== undefined);

  return (
    <>
      {entries.length > 0 && (
        <button
          type="button"
          className={`btn btn-sm ${refused ? 'btn-error' : 'btn-neutral'}`}
          data-testid="outbox-indicator"
          aria-haspopup="dialog"
          onClick={() => setOpen(true)}
        >
          {OFFLINE_TEXT.pending(entries.length)}
        </button>
      )}
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={OFFLINE_TEXT.panelTitle}
        description={OFFLINE_TEXT.panelDescription}
        data-testid="outbox-panel"
        actions={
          <button type="button" className="btn" onClick={() => setOpen(false)}>
            {OFFLINE_TEXT.close}
          </button>
        }
      >
        <ol className="flex flex-col gap-2">
          {entries.map((entry) => (
            <li
              key={entry.id}
              className="rounded-box border border-base-300 p-3"
              data-testid="outbox-entry"
              data-state={entry.refused === undefined ? 'waiting' : 'refused'}
            >
              <p className="font-medium">{describeChange(entry.procedure, entry.input)}</p>
              <p className="text-sm text-base-content/70">
                {OFFLINE_TEXT.created(formatDateTime(new Date(entry.createdAt)))}
              </p>
              {entry.refused === undefined ? (
                <p className="text-sm">{OFFLINE_TEXT.waiting}</p>
              ) : (
                <>
                  <p className="text-sm text-error" role="alert">
                    {OFFLINE_TEXT.refused} : {entry.refused}
                  </p>
                  {entry.conflict ? (
                    // A stale edit: sending it again would be refused again; it is redone or given up.
                    <OutboxConflict
                      entry={entry}
                      conflict={entry.conflict}
                      onDiscard={() => setDiscarding(entry.id)}
                      onOpened={() => setOpen(false)}
                    />
                  ) : (
                    <div className="mt-2 flex gap-2">
                      <button
                        type="button"
                        className="btn btn-sm"
                        onClick={() => void outbox.retry(entry.id)}
                      >
                        {OFFLINE_TEXT.retry}
                      </button>
                      <button
                        type="button"
                        className="btn btn-sm btn-error btn-outline"
                        onClick={() => setDiscarding(entry.id)}
                      >
                        {OFFLINE_TEXT.discard}
                      </button>
                    </div>
                  )}
                </>
              )}
            </li>
          ))}
        </ol>
      </Dialog>
      <ConfirmDialog
        open={discarding !== null}
        title={OFFLINE_TEXT.discardTitle}
        description={OFFLINE_TEXT.discardDescription}
        confirmLabel={OFFLINE_TEXT.discard}
        tone="danger"
        data-testid="outbox-discard-dialog"
        onCancel={() => setDiscarding(null)}
        onConfirm={() => {
          if (discarding) void outbox.discard(discarding);
          setDiscarding(null);
        }}
      />
    </>
  );
}
