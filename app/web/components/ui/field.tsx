import type { ReactNode } from 'react';

export interface FieldProps {
  /** The id of the control inside, so the label names it. */
  htmlFor?: string;
  label: ReactNode;
  /** Message under the control (a §5 validation message). */
  error?: string;
  hint?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** A label, its control and the error under it (daisyUI fieldset). */
export function Field({ htmlFor, label, error, hint, className = '', children }: FieldProps) {
  return (
    <fieldset className={`fieldset py-0 ${className}`.trim()}>
      {htmlFor ? (
        <label className="fieldset-legend pb-1" htmlFor={htmlFor}>
          {label}
        </label>
      ) : (
        <legend className="fieldset-legend pb-1">{label}</legend>
      )}
      {children}
      {hint && !error && <p className="label">{hint}</p>}
      {error && (
        <p className="text-sm text-error" id={htmlFor ? `${htmlFor}-error` : undefined} role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** aria props linking a control to its Field error. */
export function errorProps(id: string, error: string | undefined) {
  return error ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};
}
