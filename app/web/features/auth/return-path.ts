// Where to go after logging in: the page a person asked for before they had a
// session, carried in the log-in URL as ?retour=. Only a path of this application is ever followed: no
// other origin, no protocol-relative or backslash trick, no log-in or second-factor page (no loop).
import { FALLBACK_PATH } from '#shared/constants';

export const RETURN_PARAM = 'retour';
const ORIGIN = 'http://application.invalid';
const REFUSED = ['/login', '/logout', '/double-authentification', '/definir-mot-de-passe'];
const MAX_LENGTH = 2000;

/** The path (relative to /admin, with its query string) if it is safe to follow, else null. */
export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value || value.length > MAX_LENGTH || !value.startsWith('/') || value.startsWith('//')) return null;
  // Backslashes and control characters are read as slashes or dropped by URL parsers: refuse them all.
  if ([...value].some((c) => c === '\\' || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return null;
  let url: URL;
  try {
    url = new URL(value, ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== ORIGIN) return null;
  const path = url.pathname;
  if (path === '/' || REFUSED.some((p) => path === p || path.startsWith(`${p}/`))) return null;
  return `${path}${url.search}`;
}

/** `path` carrying the current page (`location` and `search`) to come back to, when it is worth it. */
export function withReturn(path: string, location: string, search: string): string {
  const back = safeReturnPath(`${location}${search ? `?${search.replace(/^\?/, '')}` : ''}`);
  return back && back !== FALLBACK_PATH ? `${path}?${RETURN_PARAM}=${encodeURIComponent(back)}` : path;
}

/** /login with the page to come back to. */
export const loginPathFor = (location: string, search: string) => withReturn('/login', location, search);

/** The safe return path read from a query string, or FALLBACK_PATH. */
export function returnPathFrom(search: string): string {
  return safeReturnPath(new URLSearchParams(search).get(RETURN_PARAM)) ?? FALLBACK_PATH;
}

/** `path` with the same ?retour= as `search` (through the second-factor steps). */
export function keepReturn(path: string, search: string): string {
  const back = safeReturnPath(new URLSearchParams(search).get(RETURN_PARAM));
  return back ? `${path}?${RETURN_PARAM}=${encodeURIComponent(back)}` : path;
}
