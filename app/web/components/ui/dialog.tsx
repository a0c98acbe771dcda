import { useEffect, useId, useRef, type ReactNode } from 'react';

export interface DialogProps {
  open: boolean;
  /** Called on Escape, on a click outside the box, and by the close button. */
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  /** Body; mounted only while open, so a form inside starts fresh each time. */
  children?: ReactNode;
  /** Buttons at the bottom (daisyUI modal-action). */
  actions?: ReactNode;
  size?: 'sm' | 'md' | 'lg' | 'xl';
  /** Set false while a request runs, so the dialog cannot be dismissed half-way. */
  dismissible?: boolean;
  'data-testid'?: string;
}

const SIZES = { sm: 'max-w-sm', md: 'max-w-lg', lg: 'max-w-2xl', xl: 'max-w-4xl' } as const;

/**
 * daisyUI modal on a native <dialog> shown with showModal(): focus is trapped, the page behind is inert and
 * the element has the dialog role, named by its title. The `open` prop is the only source of truth.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  actions,
  size = 'md',
  dismissible = true,
  'data-testid': testId,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const dismiss = () => {
    if (dismissible) onClose();
  };

  return (
    <dialog
      ref={ref}
      className="modal"
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      data-testid={testId}
      onCancel={(event) => {
        // Escape: keep the element open and let the parent decide through `open`. An Escape that closed a
        // dropdown inside (usePopover marks it open) closes only that dropdown.
        event.preventDefault();
        if (ref.current?.querySelector('[data-popover-open]')) return;
        dismiss();
      }}
    >
      {open && (
        <div className={`modal-box ${SIZES[size]}`}>
          <h3 id={titleId} className="text-lg font-semibold">
            {title}
          </h3>
          {description && (
            <p id={descriptionId} className="mt-2 text-sm text-base-content/70">
              {description}
            </p>
          )}
          {children && <div className="mt-4">{children}</div>}
          {actions && <div className="modal-action">{actions}</div>}
        </div>
      )}
      <div className="modal-backdrop" aria-hidden="true" onClick={dismiss} />
    </dialog>
  );
}
