import { serverMessage } from '#web/lib/errors';

/**
 * A list that could not be loaded says so and offers to try again: an empty state or a total of 0
 * would read as "nothing matched". The server's French message, if any, is shown under the title.
 */
export function LoadError({
  title,
  error,
  onRetry,
  testId,
}: {
  title: string;
  error: unknown;
  onRetry: () => void;
  testId: string;
}) {
  const detail = serverMessage(error, '');
  return (
    <div role="alert" className="alert alert-error alert-soft" data-testid={testId}>
      <div className="text-base-content">
        <p className="font-medium">{title}</p>
        {detail && <p className="text-sm text-base-content/70">{detail}</p>}
      </div>
      <button type="button" className="btn btn-sm" onClick={onRetry}>
        Réessayer
      </button>
    </div>
  );
}
