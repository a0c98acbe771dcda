import { SIDEBAR_COOKIE_MAX_AGE_S, SIDEBAR_COOKIE_NAME } from '#shared/constants';

/** Whether the desktop sidebar is expanded, read from a `document.cookie` string; expanded when unset. */
export function readSidebarOpen(cookie: string): boolean {
  for (const part of cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === SIDEBAR_COOKIE_NAME) return rest.join('=') !== 'false';
  }
  return true;
}

/** The `document.cookie` assignment that remembers the sidebar state for 7 days on the whole site. */
export function sidebarCookie(open: boolean): string {
  return `${SIDEBAR_COOKIE_NAME}=${open}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE_S}; SameSite=Lax`;
}
