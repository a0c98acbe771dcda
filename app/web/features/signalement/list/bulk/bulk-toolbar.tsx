import type { BulkAction } from '#shared/schemas/signalements';
import { BULK_TEXTS } from './bulk-texts';

export type BulkKind = BulkAction['type'];

const ACTIONS: Array<{ kind: BulkKind; label: string }> = [
  { kind: 'assigner', label: BULK_TEXTS.assign },
  { kind: 'desassigner', label: BULK_TEXTS.unassign },
  { kind: 'statut', label: BULK_TEXTS.statut },
  { kind: 'niveau', label: BULK_TEXTS.niveau },
];

/** The four bulk actions, shown while something is selected; each opens its dialog. */
export function BulkToolbar({ label, onAction }: { label: string; onAction: (kind: BulkKind) => void }) {
  return (
    <div
      role="toolbar"
      aria-label={BULK_TEXTS.toolbar}
      className="flex flex-wrap items-center gap-2 rounded-box border border-primary/30 bg-primary/5 px-3 py-2"
      data-testid="bulk-toolbar"
    >
      <span className="mr-auto text-sm font-medium" data-testid="bulk-count">
        {label}
      </span>
      {ACTIONS.map((a) => (
        <button
          key={a.kind}
          type="button"
          className="btn btn-sm"
          onClick={() => onAction(a.kind)}
          data-testid={`bulk-${a.kind}`}
        >
          {a.label}
        </button>
      ))}
    </div>
  );
}
