import type { ReactNode } from 'react';
import { Breadcrumb, type BreadcrumbItem } from './breadcrumb';

export interface PageHeaderProps {
  /** The page's h1. */
  title: ReactNode;
  subtitle?: ReactNode;
  /** Items after the home link; omit for no breadcrumb. */
  breadcrumb?: BreadcrumbItem[];
  /** Buttons on the right (export, create…). */
  actions?: ReactNode;
}

export function PageHeader({ title, subtitle, breadcrumb, actions }: PageHeaderProps) {
  return (
    <div className="mb-6 flex flex-col gap-2">
      {breadcrumb && <Breadcrumb items={breadcrumb} />}
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
          {subtitle && <p className="mt-1 text-sm text-base-content/70">{subtitle}</p>}
        </div>
        {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
      </div>
    </div>
  );
}
