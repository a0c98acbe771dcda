import { useEffect, useId, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { myCasesPath } from '#web/features/signalement/list/list-url';
import { useWhoAmI } from '#web/features/auth/use-who-am-i';
import { FILTRES_TEXT } from '#web/features/filtres/filtres-text';
import { LOGOUT_CONFIRMED, LogoutConfirmDialog } from '#web/features/auth/logout-confirm-dialog';
import { ManageFiltersDialog } from '#web/features/filtres/manage-filters-dialog';
import { SavedFilterItems } from '#web/features/filtres/saved-filter-items';
import { activeFiltre, currentRequete } from '#web/features/filtres/saved-filters';
import { useSavedFilters } from '#web/features/filtres/use-saved-filters';
import { isAdmin } from '#web/lib/role';
import {
  BuildingIcon,
  CloseIcon,
  DashboardIcon,
  EyeIcon,
  FolderIcon,
  KeyIcon,
  ListIcon,
  LogOutIcon,
  ShieldAlertIcon,
  UsersIcon,
  WebhookIcon,
} from '../icons';
import { useSidebar } from './sidebar-context';

export const SIDEBAR_ID = 'app-sidebar';

interface NavItemDef {
  href: string;
  label: string;
  icon: ComponentType<{ size?: number; className?: string }>;
  /** The item stays highlighted on every path under this prefix (e.g. a report's detail). */
  activePrefix?: string;
}

const DASHBOARD: NavItemDef = { href: '/dashboard', label: 'Tableau de bord', icon: DashboardIcon };
const SIGNALEMENT_ITEMS: NavItemDef[] = [
  {
    href: '/signalement/list',
    label: 'Liste des signalements',
    icon: ListIcon,
    activePrefix: '/signalement/',
  },
];
const ADMIN_ITEMS: NavItemDef[] = [
  { href: '/users', label: 'Utilisateurs', icon: UsersIcon },
  { href: '/partenaires', label: 'Partenaires', icon: BuildingIcon },
  { href: '/journal-acces', label: 'Journal des accès', icon: EyeIcon },
  { href: '/webhooks', label: 'Webhooks', icon: WebhookIcon },
  { href: '/acces-api', label: 'Accès API', icon: KeyIcon },
];

function isActive(item: NavItemDef, location: string): boolean {
  if (location === item.href || location.startsWith(`${item.href}/`)) return true;
  return item.activePrefix !== undefined && location.startsWith(item.activePrefix);
}

/** Desktop sidebar: 16rem expanded, 3rem icon rail when collapsed. Not rendered under 768px. */
export function DesktopSidebar() {
  const { open } = useSidebar();
  return (
    <aside
      id={SIDEBAR_ID}
      data-testid="sidebar"
      data-state={open ? 'expanded' : 'collapsed'}
      aria-label="Barre latérale"
      className={`sticky top-0 h-screen self-start shrink-0 overflow-hidden border-r border-base-300 bg-base-100 transition-[width] duration-200 ease-linear ${
        open ? 'w-[var(--sidebar-width)]' : 'w-[var(--sidebar-width-icon)]'
      }`}
    >
      <SidebarContent collapsed={!open} />
    </aside>
  );
}

/** Mobile sheet: an 18rem drawer over a backdrop; Escape, the backdrop and navigation close it. */
export function MobileSidebar() {
  const { openMobile, setOpenMobile } = useSidebar();
  const sheet = useRef<HTMLElement>(null);

  useEffect(() => {
    if (!openMobile) return;
    sheet.current?.querySelector<HTMLElement>('a, button')?.focus();
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape') setOpenMobile(false);
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [openMobile, setOpenMobile]);

  if (!openMobile) return null;
  return (
    <>
      <div
        className="fixed inset-0 z-40 bg-black/50"
        data-testid="sidebar-backdrop"
        aria-hidden="true"
        onClick={() => setOpenMobile(false)}
      />
      <aside
        ref={sheet}
        id={SIDEBAR_ID}
        role="dialog"
        aria-modal="true"
        aria-label="Menu"
        data-testid="sidebar-sheet"
        data-state="open"
        className="fixed inset-y-0 left-0 z-50 w-[var(--sidebar-width-mobile)] max-w-[85vw] bg-base-100 shadow-xl"
      >
        <button
          type="button"
          className="btn btn-ghost btn-sm btn-square absolute top-3 right-2"
          aria-label="Fermer le menu"
          onClick={() => setOpenMobile(false)}
        >
          <CloseIcon size={16} />
        </button>
        <SidebarContent collapsed={false} onNavigate={() => setOpenMobile(false)} />
      </aside>
    </>
  );
}

function SidebarContent({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const [location, navigate] = useLocation();
  const search = useSearch();
  const whoAmI = useWhoAmI();
  // Shown once who-am-i has answered with an admin; hidden while loading and after a failed call.
  const showAdmin = whoAmI.isSuccess && isAdmin(whoAmI.user);
  const [confirmLogout, setConfirmLogout] = useState(false);
  const [managing, setManaging] = useState(false);
  const saved = useSavedFilters();

  // « Mes dossiers » is the list filtered on me (docs/decisions/0028); it, not the list, is highlighted then.
  const myCases: NavItemDef | null = whoAmI.user
    ? { href: myCasesPath(whoAmI.user.code), label: 'Mes dossiers', icon: FolderIcon }
    : null;
  const onMyCases = myCases !== null && `${location}?${search}` === myCases.href;
  // A saved filter the address shows is marked, rather than the list (docs/decisions/0046-saved-filters.md).
  const activeFilter = onMyCases ? null : activeFiltre(saved.filtres, currentRequete(location, search));
  const item = (def: NavItemDef) => (
    <NavItem
      key={def.href}
      def={def}
      active={def === myCases ? onMyCases : !onMyCases && activeFilter === null && isActive(def, location)}
      collapsed={collapsed}
      onNavigate={onNavigate}
    />
  );

  return (
    <div className="flex h-full flex-col">
      <div
        className={`flex h-14 shrink-0 items-center gap-2 border-b border-base-300 ${collapsed ? 'justify-center' : 'px-4'}`}
      >
        <span className="shrink-0 text-primary" title={collapsed ? 'Signalements' : undefined}>
          <ShieldAlertIcon size={22} />
        </span>
        {!collapsed && <span className="truncate text-lg font-semibold">Signalements</span>}
      </div>

      <nav
        aria-label="Navigation principale"
        data-sidebar-nav
        className="flex-1 overflow-x-hidden overflow-y-auto py-2"
      >
        <ul className={`menu w-full gap-0.5 ${collapsed ? 'px-1.5' : ''}`}>{item(DASHBOARD)}</ul>
        <NavGroup label="Signalement" collapsed={collapsed}>
          {SIGNALEMENT_ITEMS.map(item)}
          {myCases && item(myCases)}
        </NavGroup>
        <NavGroup label={FILTRES_TEXT.group} collapsed={collapsed} testId="saved-filters-group">
          <SavedFilterItems
            filtres={saved.filtres}
            activeId={activeFilter}
            failed={saved.failed}
            collapsed={collapsed}
            onNavigate={onNavigate}
            onManage={() => setManaging(true)}
          />
        </NavGroup>
        {showAdmin && (
          <NavGroup label="Administration" collapsed={collapsed} testId="admin-group">
            {ADMIN_ITEMS.map(item)}
          </NavGroup>
        )}
      </nav>

      <div className={`shrink-0 border-t border-base-300 py-2 ${collapsed ? 'px-1.5' : 'px-2'}`}>
        <button
          type="button"
          className={`btn btn-ghost w-full font-normal text-error ${collapsed ? 'btn-square' : 'justify-start'}`}
          aria-label={collapsed ? 'Déconnexion' : undefined}
          title={collapsed ? 'Déconnexion' : undefined}
          data-testid="logout-button"
          onClick={() => setConfirmLogout(true)}
        >
          <LogOutIcon size={18} />
          {!collapsed && <span>Déconnexion</span>}
        </button>
      </div>

      <ManageFiltersDialog open={managing} filtres={saved.filtres} onClose={() => setManaging(false)} />
      <LogoutConfirmDialog
        open={confirmLogout}
        onCancel={() => setConfirmLogout(false)}
        onConfirm={() => {
          setConfirmLogout(false);
          onNavigate?.();
          navigate('/logout', { state: LOGOUT_CONFIRMED });
        }}
      />
    </div>
  );
}

function NavGroup({
  label,
  collapsed,
  testId,
  children,
}: {
  label: string;
  collapsed: boolean;
  testId?: string;
  children: ReactNode;
}) {
  const labelId = useId();
  return (
    <div role="group" aria-labelledby={labelId} data-testid={testId} className="mt-2">
      <div
        id={labelId}
        className={
          collapsed
            ? 'sr-only'
            : 'px-6 pt-2 pb-1 text-xs font-semibold tracking-wide text-base-content/70 uppercase'
        }
      >
        {label}
      </div>
      {collapsed && <div className="mx-3 my-1 border-t border-base-300" aria-hidden="true" />}
      <ul className={`menu w-full gap-0.5 py-0 ${collapsed ? 'px-1.5' : ''}`}>{children}</ul>
    </div>
  );
}

function NavItem({
  def,
  active,
  collapsed,
  onNavigate,
}: {
  def: NavItemDef;
  active: boolean;
  collapsed: boolean;
  onNavigate?: () => void;
}) {
  const Icon = def.icon;
  return (
    <li>
      <Link
        href={def.href}
        aria-current={active ? 'page' : undefined}
        title={collapsed ? def.label : undefined}
        data-active={active ? 'true' : undefined}
        className={`${active ? 'menu-active' : ''} ${collapsed ? 'justify-center px-0' : ''}`}
        onClick={onNavigate}
      >
        <Icon size={18} className="shrink-0" />
        <span className={collapsed ? 'sr-only' : 'truncate'}>{def.label}</span>
      </Link>
    </li>
  );
}
