import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { AlertCircleIcon, CheckCircleIcon, CloseIcon, InfoIcon } from '../icons';

export type ToastVariant = 'success' | 'error' | 'info';

export interface ToastOptions {
  /** Second, smaller line under the message. */
  description?: string;
  /** Milliseconds before the toast goes away by itself. */
  duration?: number;
}

export interface ToastApi {
  success(message: string, options?: ToastOptions): number;
  error(message: string, options?: ToastOptions): number;
  info(message: string, options?: ToastOptions): number;
  dismiss(id: number): void;
}

interface ToastItem {
  id: number;
  variant: ToastVariant;
  message: string;
  description?: string;
  duration: number;
}

const DEFAULT_DURATION_MS: Record<ToastVariant, number> = { success: 4000, info: 4000, error: 6000 };
const MAX_VISIBLE = 5;

const ToastContext = createContext<ToastApi | null>(null);

let nextToastId = 1;

/** Messages of spec §8 ("Auteur ajouté.", "Échec de la suppression."…) shown top right, dismissed automatically. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);

  const dismiss = useCallback((id: number) => {
    setToasts((current) => current.filter((toast) => toast.id !== id));
  }, []);

  const api = useMemo<ToastApi>(() => {
    const show =
      (variant: ToastVariant) =>
      (message: string, options: ToastOptions = {}) => {
        const id = nextToastId++;
        const item: ToastItem = {
          id,
          variant,
          message,
          description: options.description,
          duration: options.duration ?? DEFAULT_DURATION_MS[variant],
        };
        setToasts((current) => [...current, item].slice(-MAX_VISIBLE));
        return id;
      };
    return { success: show('success'), error: show('error'), info: show('info'), dismiss };
  }, [dismiss]);

  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toast toast-bottom toast-end pointer-events-none z-[1000]" data-testid="toasts">
        {toasts.map((toast) => (
          <Toast key={toast.id} toast={toast} onDismiss={dismiss} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

const VARIANT_CLASS: Record<ToastVariant, string> = {
  success: 'alert-success',
  error: 'alert-error',
  info: 'alert-info',
};

const VARIANT_ICON: Record<ToastVariant, typeof InfoIcon> = {
  success: CheckCircleIcon,
  error: AlertCircleIcon,
  info: InfoIcon,
};

function Toast({ toast, onDismiss }: { toast: ToastItem; onDismiss: (id: number) => void }) {
  useEffect(() => {
    const timer = window.setTimeout(() => onDismiss(toast.id), toast.duration);
    return () => window.clearTimeout(timer);
  }, [toast.id, toast.duration, onDismiss]);

  const Icon = VARIANT_ICON[toast.variant];
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="toast"
      data-variant={toast.variant}
      className={`alert ${VARIANT_CLASS[toast.variant]} alert-soft pointer-events-auto w-80 max-w-full items-start whitespace-normal shadow-md sm:w-96`}
    >
      <Icon size={20} className="mt-0.5 shrink-0" />
      <div className="min-w-0 flex-1 text-base-content">
        <p className="font-medium">{toast.message}</p>
        {toast.description && <p className="text-sm text-base-content/70">{toast.description}</p>}
      </div>
      <button
        type="button"
        className="btn btn-ghost btn-xs btn-square"
        aria-label="Fermer la notification"
        onClick={() => onDismiss(toast.id)}
      >
        <CloseIcon size={14} />
      </button>
    </div>
  );
}

/** `const toast = useToast(); toast.success('Auteur ajouté.'); toast.error('Échec…', { description: '…' })`. */
export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast must be used inside <ToastProvider>');
  return api;
}
