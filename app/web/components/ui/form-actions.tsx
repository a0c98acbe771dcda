import type { FormEventHandler, FormHTMLAttributes, ReactNode } from 'react';

export interface FormProps extends Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit' | 'aria-label'> {
  /** The form's accessible name. */
  label: string;
  /** Usually the form's handleSubmit(…): the browser's own checks are off, the zod schema speaks (§5). */
  onSubmit: FormEventHandler<HTMLFormElement>;
  'data-testid'?: string;
}

/** A form whose fields stack; the schema, not the browser, checks the values. */
export function Form({ label, onSubmit, className = 'flex flex-col gap-3', children, ...props }: FormProps) {
  return (
    <form onSubmit={onSubmit} noValidate className={className} aria-label={label} {...props}>
      {children}
    </form>
  );
}

/** The small turning circle of a button whose request runs. */
export function ButtonSpinner() {
  return <span className="loading loading-spinner loading-sm" aria-hidden="true" />;
}

export interface SubmitButtonProps {
  /** The request runs: spinner, and no second submit. */
  pending: boolean;
  disabled?: boolean;
  /** Classes added to 'btn btn-primary' (a full-width button on the sign-in cards). */
  className?: string;
  children: ReactNode;
}

export function SubmitButton({ pending, disabled = false, className, children }: SubmitButtonProps) {
  return (
    <button
      type="submit"
      className={className ? `btn btn-primary ${className}` : 'btn btn-primary'}
      disabled={pending || disabled}
    >
      {pending && <ButtonSpinner />}
      {children}
    </button>
  );
}

export interface DialogFooterProps {
  pending: boolean;
  onCancel: () => void;
  /** The submit button's text ('Enregistrer', 'Créer'…). */
  submitLabel: string;
  /** Submitting is impossible for another reason than a running request. */
  submitDisabled?: boolean;
}

/** Annuler / submit at the bottom of a dialog's form; both wait while the request runs. */
export function DialogFooter({ pending, onCancel, submitLabel, submitDisabled }: DialogFooterProps) {
  return (
    <div className="modal-action">
      <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={pending}>
        Annuler
      </button>
      <SubmitButton pending={pending} disabled={submitDisabled}>
        {submitLabel}
      </SubmitButton>
    </div>
  );
}
