import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog';
import { PencilIcon, PlusIcon, TrashIcon } from '#web/components/ui/more-icons';
import { Loading } from '#web/components/ui/loading';
import { DetailCard } from '../detail/detail-card';

export interface PersonSectionProps<T extends { code: string }> {
  title: string;
  items: readonly T[] | undefined;
  loading: boolean;
  canEdit: boolean;
  addLabel: string;
  emptyText: string;
  /** The name line and the detail lines of one person. */
  describe: (item: T) => { name: ReactNode; details: ReactNode[] };
  onAdd: () => void;
  onEdit: (item: T) => void;
  /** Resolves once the delete is done (the confirm dialog waits for it). */
  onDelete: (item: T) => Promise<unknown>;
  /** Extra controls in the header (the anonymous switch of the sources). */
  headerExtra?: ReactNode;
  /** Replaces the list (anonymous report: the sources are hidden). */
  body?: ReactNode;
  'data-testid'?: string;
}

/** A card listing authors, sources or victims with add, edit and delete (delete asks first, §2). */
export function PersonSection<T extends { code: string }>({
  title,
  items,
  loading,
  canEdit,
  addLabel,
  emptyText,
  describe,
  onAdd,
  onEdit,
  onDelete,
  headerExtra,
  body,
  'data-testid': testId,
}: PersonSectionProps<T>) {
  const [deleting, setDeleting] = useState<T | null>(null);
  const [pending, setPending] = useState(false);

  const confirmDelete = async () => {
    if (!deleting) return;
    setPending(true);
    try {
      await onDelete(deleting);
    } finally {
      setPending(false);
      setDeleting(null);
    }
  };

  return (
    <DetailCard
      title={
        <span>
          {title}
          {items && <span className="ml-2 text-sm font-normal text-base-content/70">({items.length})</span>}
        </span>
      }
      data-testid={testId}
      actions={
        <>
          {headerExtra}
          {canEdit && !body && (
            <button type="button" className="btn btn-sm btn-outline" onClick={onAdd} data-testid="person-add">
              <PlusIcon />
              {addLabel}
            </button>
          )}
        </>
      }
    >
      {body ??
        (loading ? (
          <Loading />
        ) : !items || items.length === 0 ? (
          <p className="text-sm text-base-content/70">{emptyText}</p>
        ) : (
          <ul className="flex flex-col divide-y divide-base-300">
            {items.map((item) => {
              const { name, details } = describe(item);
              return (
                <li key={item.code} className="flex items-start gap-3 py-2.5" data-testid="person-item">
                  <div className="min-w-0 flex-1">
                    <p className="font-medium break-words">{name}</p>
                    {details.filter(Boolean).map((line, i) => (
                      <p key={i} className="text-sm break-words text-base-content/70">
                        {line}
                      </p>
                    ))}
                  </div>
                  {canEdit && (
                    <div className="flex shrink-0 gap-1">
                      <button
                        type="button"
                        className="btn btn-ghost btn-sm btn-square"
                        aria-label="Modifier"
                        title="Modifier"
                        data-testid="person-edit"
                        onClick={() => onEdit(item)}
                      >
                        <PencilIcon />
                      </button>
                      <button
                        type="button"
                        className="btn btn-ghost btn-sm btn-square text-error"
                        aria-label="Supprimer"
                        title="Supprimer"
                        data-testid="person-delete"
                        onClick={() => setDeleting(item)}
                      >
                        <TrashIcon />
                      </button>
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        ))}
      <ConfirmDialog
        open={deleting !== null}
        title="Êtes-vous sûr ?"
        description="Cette action est irréversible."
        confirmLabel="Supprimer"
        tone="danger"
        pending={pending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
        data-testid="delete-dialog"
      />
    </DetailCard>
  );
}
