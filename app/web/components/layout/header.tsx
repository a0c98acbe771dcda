import { useId } from 'react';
import { useWhoAmI } from '#web/features/auth/use-who-am-i';
import { OutboxIndicator } from '#web/features/offline/outbox-indicator';
import { initials } from '#web/lib/format';
import { roleBadge } from '#web/lib/role';
import { PanelLeftIcon } from '../icons';
import { Badge } from '../ui/badge';
import { SIDEBAR_ID } from './sidebar';
import { useSidebar } from './sidebar-context';

export function Header() {
  const { isMobile, open, openMobile, toggle } = useSidebar();
  const expanded = isMobile ? openMobile : open;

  return (
    <header className="sticky top-0 z-30 flex h-14 shrink-0 items-center gap-2 border-b border-base-300 bg-base-100 px-3 md:px-4">
      <button
        type="button"
        className="btn btn-ghost btn-sm btn-square"
        aria-label={expanded ? 'Réduire le menu latéral' : 'Ouvrir le menu latéral'}
        aria-expanded={expanded}
        aria-controls={SIDEBAR_ID}
        aria-keyshortcuts="Control+B Meta+B"
        title="Menu latéral (Ctrl+B)"
        data-testid="sidebar-toggle"
        onClick={toggle}
      >
        <PanelLeftIcon size={18} />
      </button>
      <div className="flex-1" />
      <OutboxIndicator />
      <CurrentUser />
    </header>
  );
}

function CurrentUser() {
  const { user } = useWhoAmI();
  const tooltipId = useId();
  if (!user) return null;
  const badge = roleBadge(user.utilisateurRole.code);

  return (
    <div className="flex min-w-0 items-center gap-3" data-testid="current-user">
      <div className="flex min-w-0 flex-col items-end gap-0.5 sm:flex-row sm:items-center sm:gap-2">
        <div className="tooltip tooltip-bottom">
          <div className="tooltip-content" role="tooltip" id={tooltipId} data-testid="user-email">
            {user.email}
          </div>
          <span
            tabIndex={0}
            aria-describedby={tooltipId}
            className="block max-w-[10rem] truncate text-sm font-medium sm:max-w-[16rem]"
            data-testid="user-name"
          >
            {user.nomPrenom}
          </span>
        </div>
        {/* Spec §2 shows roles other than ROLE_ADMIN and ROLE_USER raw; their French name is the tooltip. */}
        <Badge
          tone={badge.tone}
          size="sm"
          data-testid="role-badge"
          data-role={user.utilisateurRole.code}
          title={user.utilisateurRole.designation}
        >
          {badge.label}
        </Badge>
      </div>
      <div className="avatar avatar-placeholder" aria-hidden="true">
        <div className="w-9 rounded-full bg-primary text-primary-content">
          <span className="text-sm font-semibold" data-testid="user-initials">
            {initials(user.nomPrenom)}
          </span>
        </div>
      </div>
    </div>
  );
}
