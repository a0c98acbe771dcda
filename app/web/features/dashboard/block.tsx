import { Suspense, useEffect, type ReactNode } from 'react';
import { useToast } from '#web/components/ui/toast';
import { errorCode } from '#web/lib/errors';
import { EMPTY_TEXT, GENERIC_ERROR } from './texts';

interface QueryState {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  errorUpdatedAt: number;
}

/** Shows `toast` once each time the query ends in error (after its retries). */
export function useErrorToast(query: QueryState, toast: string | null): void {
  const toasts = useToast();
  const { isError, errorUpdatedAt } = query;
  useEffect(() => {
    if (isError && toast) toasts.error(toast);
  }, [isError, errorUpdatedAt, toast, toasts]);
}

/** The server's French message, or the generic text when there is none (network failure, 5xx). */
export function messageOf(error: unknown): string {
  const fromServer = errorCode(error) !== null && error instanceof Error ? error.message.trim() : '';
  return fromServer || GENERIC_ERROR;
}

export function BlockLoading({ height = 'h-40' }: { height?: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="block-loading"
      className={`flex ${height} items-center justify-center gap-2 text-base-content/70`}
    >
      <span className="loading loading-spinner loading-sm" aria-hidden="true" />
      <span>Chargement...</span>
    </div>
  );
}

interface BlockProps {
  title: ReactNode;
  testId: string;
  query: QueryState;
  /** The block's error line (spec §8). */
  errorText: string;
  isEmpty: boolean;
  actions?: ReactNode;
  className?: string;
  children: () => ReactNode;
}

/** A dashboard card that loads, fails and shows 'Aucune donnée disponible' on its own. */
export function Block({
  title,
  testId,
  query,
  errorText,
  isEmpty,
  actions,
  className = '',
  children,
}: BlockProps) {
  const state = query.isPending ? 'loading' : query.isError ? 'error' : isEmpty ? 'empty' : 'ready';
  return (
    <section
      className={`card border border-base-300 bg-base-100 shadow-sm ${className}`}
      data-testid={testId}
      data-state={state}
      aria-busy={state === 'loading'}
    >
      <div className="card-body gap-3 p-4 sm:p-5">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="card-title text-base">{title}</h2>
          {actions}
        </div>
        {state === 'loading' && <BlockLoading />}
        {state === 'error' && (
          <div role="alert" className="alert alert-error alert-soft" data-testid="block-error">
            {errorText}
          </div>
        )}
        {state === 'empty' && (
          <p className="py-10 text-center text-sm text-base-content/70" data-testid="block-empty">
            {EMPTY_TEXT}
          </p>
        )}
        {state === 'ready' && <Suspense fallback={<BlockLoading />}>{children()}</Suspense>}
      </div>
    </section>
  );
}
