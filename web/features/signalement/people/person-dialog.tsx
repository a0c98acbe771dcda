import type { ComponentType, FormEventHandler, ReactNode } from 'react';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { Dialog } from '../../../components/ui/dialog';
import { errorProps, Field } from '../../../components/ui/field';
import { FormButtons } from './form-buttons';

export interface PersonDialogProps<TItem, TValues> {
  /** null: closed; 'new': adding; a person: editing it. */
  target: TItem | 'new' | null;
  pending: boolean;
  onClose: () => void;
  onSubmit: (values: TValues) => void;
}

export interface PersonFormProps<TItem, TValues> {
  /** null when adding. */
  initial: TItem | null;
  pending: boolean;
  onClose: () => void;
  onSubmit: (values: TValues) => void;
}

interface PersonDialogOptions<TItem, TValues> {
  addTitle: string;
  editTitle: string;
  /** The kind's form, mounted while the dialog is open. */
  form: ComponentType<PersonFormProps<TItem, TValues>>;
  testId: string;
}

/** The add / edit dialog of one kind of person (author, source or victim). */
export function personDialog<TItem, TValues>({
  addTitle,
  editTitle,
  form: Form,
  testId,
}: PersonDialogOptions<TItem, TValues>) {
  return function PersonDialog({ target, pending, onClose, onSubmit }: PersonDialogProps<TItem, TValues>) {
    return (
      <Dialog
        open={target !== null}
        onClose={onClose}
        dismissible={!pending}
        title={target === 'new' ? addTitle : editTitle}
        data-testid={testId}
      >
        {target !== null && (
          <Form
            initial={target === 'new' ? null : target}
            pending={pending}
            onClose={onClose}
            onSubmit={onSubmit}
          />
        )}
      </Dialog>
    );
  };
}

/** The form of a person's dialog: its fields, then Annuler / Enregistrer. */
export function PersonForm({
  label,
  pending,
  onCancel,
  onSubmit,
  children,
}: {
  label: string;
  pending: boolean;
  onCancel: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
}) {
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3" aria-label={label}>
      {children}
      <FormButtons pending={pending} onCancel={onCancel} />
    </form>
  );
}

/** A text input that shows its validation message (§5). */
export function CheckedInput({
  id,
  label,
  error,
  autoFocus,
  registration,
}: {
  id: string;
  label: string;
  error: FieldError | undefined;
  autoFocus?: boolean;
  registration: UseFormRegisterReturn;
}) {
  return (
    <Field htmlFor={id} label={label} error={error?.message}>
      <input
        id={id}
        autoFocus={autoFocus}
        className={`input w-full ${error ? 'input-error' : ''}`}
        {...errorProps(id, error?.message)}
        {...registration}
      />
    </Field>
  );
}
