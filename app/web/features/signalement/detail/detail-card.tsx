import type { ReactNode } from 'react';
import { Badge } from '#web/components/ui/badge';
import { EMPTY_VALUE } from '../labels';

/** One card of the detail screen, with its title and optional buttons on the right. */
export function DetailCard({
  title,
  actions,
  children,
  'data-testid': testId,
}: {
  title: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  'data-testid'?: string;
}) {
  return (
    <section className="card border border-base-300 bg-base-100" data-testid={testId}>
      <div className="card-body gap-4 p-4 md:p-5">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="card-title text-base">{title}</h2>
          {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
        </div>
        {children}
      </div>
    </section>
  );
}

/** A read-only label and value; an empty value reads 'Non renseigné' (§2). */
export function ReadValue({ label, value }: { label: string; value: ReactNode }) {
  const empty = value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs font-medium tracking-wide text-base-content/70 uppercase">{label}</dt>
      <dd className={`text-sm break-words ${empty ? 'text-base-content/70' : ''}`}>
        {empty ? EMPTY_VALUE : value}
      </dd>
    </div>
  );
}

/** 'Oui' in green or 'Non' in grey (§2). */
export function YesNo({ value, 'data-testid': testId }: { value: boolean; 'data-testid'?: string }) {
  return (
    <Badge tone={value ? 'green' : 'gray'} size="sm" data-testid={testId}>
      {value ? 'Oui' : 'Non'}
    </Badge>
  );
}
