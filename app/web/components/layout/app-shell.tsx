import type { CSSProperties, ReactNode } from 'react';
import { SIDEBAR_WIDTH, SIDEBAR_WIDTH_ICON, SIDEBAR_WIDTH_MOBILE } from '#shared/constants';
import { Header } from './header';
import { DesktopSidebar, MobileSidebar } from './sidebar';
import { SidebarProvider, useSidebar } from './sidebar-context';

const SIDEBAR_VARS = {
  '--sidebar-width': SIDEBAR_WIDTH,
  '--sidebar-width-mobile': SIDEBAR_WIDTH_MOBILE,
  '--sidebar-width-icon': SIDEBAR_WIDTH_ICON,
} as CSSProperties;

/** Sidebar, header and page area of every logged-in screen. */
export function AppShell({ children }: { children: ReactNode }) {
  return (
    <SidebarProvider>
      <ShellLayout>{children}</ShellLayout>
    </SidebarProvider>
  );
}

function ShellLayout({ children }: { children: ReactNode }) {
  const { isMobile } = useSidebar();
  return (
    <div
      className="flex min-h-screen bg-base-200 print:block print:min-h-0 print:bg-transparent"
      style={SIDEBAR_VARS}
      data-testid="app-shell"
    >
      <a
        href="#main-content"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 btn btn-sm"
      >
        Aller au contenu
      </a>
      {/* The page alone on paper: no sidebar, no header (docs/decisions/0043-print-view.md). */}
      <div className="contents print:hidden">{isMobile ? <MobileSidebar /> : <DesktopSidebar />}</div>
      <div className="flex min-w-0 flex-1 flex-col">
        <div className="contents print:hidden">
          <Header />
        </div>
        <main id="main-content" className="min-w-0 flex-1 p-4 md:p-6 print:p-0">
          {children}
        </main>
      </div>
    </div>
  );
}
