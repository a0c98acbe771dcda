/** The guard's and lazy pages' waiting state; the text is the spec's 'Chargement...'. */
export function Loading({
  label = 'Chargement...',
  fullScreen = false,
}: {
  label?: string;
  fullScreen?: boolean;
}) {
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="loading"
      className={`flex items-center justify-center gap-3 text-base-content/70 ${fullScreen ? 'min-h-screen' : 'py-16'}`}
    >
      <span className="loading loading-spinner loading-md" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
