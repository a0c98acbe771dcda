import {
  createContext,
  useCallback,
  useContext,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { SIDEBAR_MOBILE_BREAKPOINT_PX } from '#shared/constants';
import { readSidebarOpen, sidebarCookie } from '#web/lib/sidebar-cookie';

const MOBILE_QUERY = `(max-width: ${SIDEBAR_MOBILE_BREAKPOINT_PX - 1}px)`;

function subscribeToViewport(onChange: () => void): () => void {
  const media = window.matchMedia(MOBILE_QUERY);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

/** True under 768px wide, where the sidebar becomes a sheet. */
export function useIsMobile(): boolean {
  return useSyncExternalStore(
    subscribeToViewport,
    () => window.matchMedia(MOBILE_QUERY).matches,
    () => false,
  );
}

export interface SidebarState {
  isMobile: boolean;
  /** Desktop: expanded (true) or icon rail (false); remembered in the sidebar_state cookie. */
  open: boolean;
  setOpen: (open: boolean) => void;
  /** Mobile: the sheet is shown. */
  openMobile: boolean;
  setOpenMobile: (open: boolean) => void;
  /** What ctrl/meta+b and the header button do on the current screen size. */
  toggle: () => void;
}

const SidebarContext = createContext<SidebarState | null>(null);

export function SidebarProvider({ children }: { children: ReactNode }) {
  const isMobile = useIsMobile();
  const [open, setOpenState] = useState(() => readSidebarOpen(document.cookie));
  const [openMobile, setOpenMobile] = useState(false);

  const setOpen = useCallback((next: boolean) => {
    setOpenState(next);
    document.cookie = sidebarCookie(next);
  }, []);

  const toggle = useCallback(() => {
    if (isMobile) setOpenMobile((current) => !current);
    else setOpen(!open);
  }, [isMobile, open, setOpen]);

  // A sheet left open while widening the window must not reappear when narrowing it again.
  const [wasMobile, setWasMobile] = useState(isMobile);
  if (wasMobile !== isMobile) {
    setWasMobile(isMobile);
    if (!isMobile) setOpenMobile(false);
  }

  // ctrl/meta+b is live as soon as the sidebar shows: the listener is attached once, in the commit that
  // first shows it (a layout effect runs before any later event; a passive one could run after a key
  // already pressed), and calls the toggle of the latest render.
  const toggleRef = useRef(toggle);
  useLayoutEffect(() => {
    toggleRef.current = toggle;
  });
  useLayoutEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (
        event.key.toLowerCase() === 'b' &&
        (event.ctrlKey || event.metaKey) &&
        !event.altKey &&
        !event.shiftKey
      ) {
        event.preventDefault();
        toggleRef.current();
      }
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  const value = useMemo<SidebarState>(
    () => ({ isMobile, open, setOpen, openMobile, setOpenMobile, toggle }),
    [isMobile, open, setOpen, openMobile, toggle],
  );
  return <SidebarContext.Provider value={value}>{children}</SidebarContext.Provider>;
}

export function useSidebar(): SidebarState {
  const state = useContext(SidebarContext);
  if (!state) throw new Error('useSidebar must be used inside <SidebarProvider>');
  return state;
}
