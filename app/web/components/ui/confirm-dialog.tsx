import type { ReactNode } from 'react';
import { Dialog } from './dialog';

export interface ConfirmDialogProps {
  open: boolean;
  title: ReactNode;
  description?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** Shows a spinner on the confirm button and blocks both buttons and dismissal. */
  pending?: boolean;
  /** 'danger' for irreversible actions (delete): red confirm button. */
  tone?: 'primary' | 'danger';
  'data-testid'?: string;
}

/** A yes/no question in a modal (logout, delete, leave without saving…). Cancel has the focus first. */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel = 'Confirmer',
  cancelLabel = 'Annuler',
  onConfirm,
  onCancel,
  pending = false,
  tone = 'primary',
  'data-testid': testId = 'confirm-dialog',
}: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      title={title}
      description={description}
      size="sm"
      dismissible={!pending}
      data-testid={testId}
      actions={
        <>
          <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={pending} autoFocus>
            {cancelLabel}
          </button>
          <button
            type="button"
            className={`btn ${tone === 'danger' ? 'btn-error' : 'btn-primary'}`}
            onClick={onConfirm}
            disabled={pending}
          >
            {pending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {confirmLabel}
          </button>
        </>
      }
    />
  );
}
