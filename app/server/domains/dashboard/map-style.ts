import type { Config } from '#server/config';

/**
 * The tile style the map should load: MAP_STYLE_URL when the server could fetch it recently, else null
 * and the client draws its bundled offline style. Checking here keeps an unreachable tile service from
 * filling the browser console with failed requests, and costs one request per few minutes.
 */
export interface MapStyleConfig {
  styleUrl: string | null;
}

const OK_FOR_MS = 5 * 60_000;
const FAILED_FOR_MS = 60_000;
const TIMEOUT_MS = 2_500;

let cached: { url: string; ok: boolean; until: number } | null = null;
const pending = new Map<string, Promise<boolean>>();

async function reachable(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'follow' });
    if (!response.ok) return false;
    const style = (await response.json()) as { version?: unknown };
    return style.version === 8;
  } catch {
    return false;
  }
}

export async function mapStyleConfig(
  config: Pick<Config, 'MAP_STYLE_URL'>,
  now = Date.now(),
): Promise<MapStyleConfig> {
  const url = config.MAP_STYLE_URL;
  if (!url) return { styleUrl: null };
  if (!cached || cached.url !== url || cached.until <= now) {
    let check = pending.get(url);
    if (!check) {
      check = reachable(url).finally(() => pending.delete(url));
      pending.set(url, check);
    }
    const ok = await check;
    cached = { url, ok, until: now + (ok ? OK_FOR_MS : FAILED_FOR_MS) };
  }
  return { styleUrl: cached.ok ? url : null };
}
