import { Link } from 'wouter';
import type { FiltreDto } from '#shared/dto/filtres';
import { SettingsIcon } from '#web/components/icons';
import { FilterIcon } from '#web/components/ui/more-icons';
import { FILTRES_TEXT } from './filtres-text';
import { filtrePath } from './saved-filters';

/**
 * The items of the sidebar's « Mes filtres » group (docs/decisions/0046-saved-filters.md): personal filters,
 * then shared ones, each a link to the list at its address (the active one marked), an empty state, and the
 * button that opens « Gérer mes filtres ».
 */
export function SavedFilterItems({
  filtres,
  activeId,
  failed,
  collapsed,
  onNavigate,
  onManage,
}: {
  filtres: readonly FiltreDto[];
  activeId: number | null;
  failed: boolean;
  collapsed: boolean;
  onNavigate?: () => void;
  onManage: () => void;
}) {
  if (failed || filtres.length === 0) {
    return (
      <li
        className={collapsed ? 'sr-only' : 'px-4 py-1 text-sm text-base-content/70'}
        data-testid="saved-filters-empty"
      >
        {failed ? FILTRES_TEXT.loadFailed : FILTRES_TEXT.empty}
      </li>
    );
  }
  return (
    <>
      {filtres.map((f) => {
        const active = f.id === activeId;
        const label = f.partage ? `${f.nom} (${FILTRES_TEXT.shared.toLowerCase()})` : f.nom;
        return (
          <li key={f.id} data-testid="saved-filter" data-filtre={f.nom}>
            <Link
              href={filtrePath(f)}
              aria-current={active ? 'page' : undefined}
              title={
                collapsed
                  ? label
                  : f.partage && !f.mien
                    ? FILTRES_TEXT.sharedBy(f.proprietaire.nomPrenom)
                    : undefined
              }
              data-active={active ? 'true' : undefined}
              className={`${active ? 'menu-active' : ''} ${collapsed ? 'justify-center px-0' : ''}`}
              onClick={onNavigate}
            >
              <FilterIcon size={18} className="shrink-0" />
              <span className={collapsed ? 'sr-only' : 'min-w-0 flex-1 truncate'}>{f.nom}</span>
              {f.partage && (
                <span className={collapsed ? 'sr-only' : 'badge badge-ghost badge-sm shrink-0'}>
                  {FILTRES_TEXT.shared}
                </span>
              )}
            </Link>
          </li>
        );
      })}
      {!collapsed && (
        <li>
          <button
            type="button"
            className="text-sm text-base-content/80"
            data-testid="manage-filters-button"
            onClick={onManage}
          >
            <SettingsIcon size={16} className="shrink-0" />
            <span>{FILTRES_TEXT.manage}</span>
          </button>
        </li>
      )}
    </>
  );
}
