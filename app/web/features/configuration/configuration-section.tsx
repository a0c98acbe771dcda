import type { ReactNode } from 'react';
import { LoadError } from '#web/components/ui/load-error';

interface ConfigurationSectionProps {
  /** Names the heading (`${id}-title`, which labels the section) and the test ids (`${id}-section`, `${id}-error`). */
  id: string;
  title: string;
  intro: string;
  /** The section's settings as read: when the read fails, `loadFailed` and a retry take their place. */
  query: { isError: boolean; error: unknown; refetch(): unknown };
  loadFailed: string;
  /** The settings, once read. */
  children?: ReactNode;
}

/** A section of the Configuration screen: a card with its heading, its introduction, and its settings or a load error. */
export function ConfigurationSection({
  id,
  title,
  intro,
  query,
  loadFailed,
  children,
}: ConfigurationSectionProps) {
  return (
    <section
      className="card border border-base-300 bg-base-100"
      aria-labelledby={`${id}-title`}
      data-testid={`${id}-section`}
    >
      <div className="card-body gap-4 p-4 md:p-5">
        <h2 id={`${id}-title`} className="card-title text-lg">
          {title}
        </h2>
        <p className="text-sm text-base-content/70">{intro}</p>
        {query.isError && (
          <LoadError
            title={loadFailed}
            error={query.error}
            onRetry={() => void query.refetch()}
            testId={`${id}-error`}
          />
        )}
        {children}
      </div>
    </section>
  );
}
