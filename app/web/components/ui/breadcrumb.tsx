import type { MouseEvent } from 'react';
import { Link } from 'wouter';
import { HomeIcon } from '../icons';

export interface BreadcrumbItem {
  label: string;
  /** Path inside /admin ('/' is home); the last item is usually the current page and has none. */
  href?: string;
  /** Lets a page intercept the navigation (e.g. unsaved changes): call event.preventDefault() to stay. */
  onClick?: (event: MouseEvent<HTMLAnchorElement>) => void;
}

export interface BreadcrumbProps {
  items: BreadcrumbItem[];
  /** Prepends a home link to '/', labelled 'Accueil'. */
  home?: boolean;
  onHomeClick?: (event: MouseEvent<HTMLAnchorElement>) => void;
}

/** daisyUI breadcrumbs in a nav named "Fil d'Ariane"; the last item is marked as the current page. */
export function Breadcrumb({ items, home = true, onHomeClick }: BreadcrumbProps) {
  return (
    <nav aria-label="Fil d'Ariane" className="breadcrumbs py-0 text-sm" data-testid="breadcrumb">
      <ul>
        {home && (
          <li>
            <Link
              href="/"
              aria-label="Accueil"
              className="inline-flex items-center gap-1"
              onClick={onHomeClick}
            >
              <HomeIcon size={14} />
              <span>Accueil</span>
            </Link>
          </li>
        )}
        {items.map((item, index) => {
          const last = index === items.length - 1;
          return (
            <li key={`${index}-${item.label}`}>
              {item.href && !last ? (
                <Link href={item.href} onClick={item.onClick}>
                  {item.label}
                </Link>
              ) : (
                <span aria-current={last ? 'page' : undefined}>{item.label}</span>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
