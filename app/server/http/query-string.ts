// The query-string parser of every route: objects without a prototype, and a key that would reach
// Object.prototype once copied (`__proto__`, `constructor`, `prototype`, alone or inside brackets)
// marks the request, which server/http/access.ts refuses with a 400 before any work.
import { isForbiddenKey } from './input-guard';

export const HOSTILE_QUERY = Symbol('hostile query');

const segments = (key: string) => key.split(/[[\].]/).filter(Boolean);

export function parseQueryString(raw: string): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]> & { [HOSTILE_QUERY]?: true };
  for (const [key, value] of new URLSearchParams(raw)) {
    if (segments(key).some(isForbiddenKey)) {
      out[HOSTILE_QUERY] = true;
      continue;
    }
    const previous = out[key];
    out[key] =
      previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return out;
}

export const isHostileQuery = (query: unknown) =>
  typeof query === 'object' && query !== null && HOSTILE_QUERY in query;
