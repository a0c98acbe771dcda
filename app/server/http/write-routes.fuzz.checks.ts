// What the write-route fuzzing (write-routes.fuzz.test.ts) checks of each answer: no 5xx, a French message on
// every refusal, and, through a snapshot of every table, no write behind a refusal.
import { getTableName, is, sql, Table, type SQL } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { Database } from '../db/client';

/** Typical English of zod, Fastify, tRPC and Node messages; the project answers in French. */
const ENGLISH =
  /\b(?:failed|invalid|input|expected|malformed|cannot|error|required|must|received|unexpected|unrecognized|not found|unauthorized|forbidden|bad request|too (?:big|small|long|large)|string|number|object|array|should|is not|does not|body)\b/i;

/** Tables written by refused requests on purpose: failed log-ins are counted (throttle.ts). */
const WRITTEN_WHEN_REFUSED = new Set(['login_throttle']);
/**
 * A refused log-in step is itself an entry of the access log (docs/decisions/0015): those entries are
 * left out of the comparison, every other kind is compared row by row.
 */
const REFUSALS_LOGGED = sql`kind <> 'echec_connexion'`;
/**
 * The one refusal meant to write: the fifth wrong second-factor code ends the session that sent it and
 * e-mails the owner, that e-mail counted in rate_windows so there is at most one an hour per account
 * (docs/decisions/0016-two-factor.md, « Limits »).
 */
export const WRITTEN_WHEN_SESSION_ENDED = new Set(['sessions', 'mail_outbox', 'rate_windows']);
/** Tables compared by row count only: large referentials, and sessions (their expiry is renewed on use). */
const COUNT_ONLY = new Set(['sessions', 'communes', 'districts']);
/**
 * Tables compared by a fingerprint of aggregates, because reading them whole after every request is what
 * the fuzz's time went to: the encrypted blocks of evidence files (up to 256 KiB each,
 * docs/decisions/0033-evidence-files.md). Any row added, removed or changed moves the count or a sum.
 */
const FINGERPRINTED: Record<string, SQL> = {
  evidence_chunks: sql`CAST(count(*) AS TEXT) || ':' || CAST(coalesce(sum(evidence_id * 1000 + idx), 0) AS TEXT) || ':' || CAST(coalesce(sum(length(data)), 0) AS TEXT)`,
};

/**
 * Tables no request writes, compared once per route rather than after every request (staticFingerprint):
 * business_days, 73,000 days (1900–2100) that only the server's start rewrites (db/due-days.ts
 * syncBusinessDays, docs/decisions/0032-deadlines.md); its aggregate took 8–10 ms, most of a snapshot.
 */
const STATIC: Record<string, SQL> = {
  business_days: sql`CAST(count(*) AS TEXT) || ':' || CAST(sum(day) AS TEXT) || ':' || CAST(sum(ordinal) AS TEXT) || ':' || CAST(sum(day * (ordinal % 97)) AS TEXT)`,
};

/** The fingerprint of each table no request writes (STATIC). */
export async function staticFingerprint(db: Database): Promise<Map<string, string>> {
  const parts = Object.entries(STATIC).map(
    ([name, fingerprint]) => sql`SELECT ${name} AS t, ${fingerprint} AS r FROM ${sql.identifier(name)}`,
  );
  const rows = await db.rows<{ t: string; r: string }>(sql.join(parts, sql` UNION ALL `));
  return new Map(rows.map(({ t, r }) => [t, r]));
}

/**
 * What every use of a partner API token writes, refused or not (docs/decisions/0038): its entry in the access
 * log, its count in rate_windows, its last use. Left out of the comparison for the token's requests only.
 */
export const WRITTEN_BY_TOKEN_USE = new Set(['access_log', 'rate_windows', 'jetons_api']);

/** Every message of an answer: REST's { message }, tRPC's { error: { message } } (or a batch of them). */
function messages(res: LightMyRequestResponse): unknown[] {
  let body: unknown;
  try {
    body = res.json();
  } catch {
    return [`(not JSON) ${res.body.slice(0, 200)}`];
  }
  const items = Array.isArray(body) ? body : [body];
  return items.map((item) => {
    const b = item as { message?: unknown; error?: { message?: unknown } };
    return b?.error?.message ?? b?.message;
  });
}

export function refusalProblem(res: LightMyRequestResponse): string | null {
  if (res.statusCode >= 500) return `status ${res.statusCode}: ${res.body.slice(0, 300)}`;
  if (res.statusCode < 400) return null;
  for (const message of messages(res)) {
    if (typeof message !== 'string' || message.trim() === '')
      return `4xx without a message: ${res.body.slice(0, 300)}`;
    if (ENGLISH.test(message)) return `English message (${res.statusCode}): ${message}`;
  }
  return null;
}

/** Every table's rows (or row count), keyed by table name. */
export async function snapshot(db: Database): Promise<Map<string, string>> {
  const tables = Object.values(db.t as Record<string, unknown>)
    .filter((value): value is Table => is(value, Table))
    .filter((table) => !WRITTEN_WHEN_REFUSED.has(getTableName(table)) && !(getTableName(table) in STATIC));
  // One statement (a snapshot is taken after every request); a row is its JSON text (the dialect's rowJson).
  const parts = tables.map((table) => {
    const name = getTableName(table);
    return COUNT_ONLY.has(name)
      ? sql`SELECT ${name} AS t, CAST(count(*) AS TEXT) AS r FROM ${sql.identifier(name)}`
      : FINGERPRINTED[name]
        ? sql`SELECT ${name} AS t, ${FINGERPRINTED[name]} AS r FROM ${sql.identifier(name)}`
        : name === 'access_log'
          ? sql`SELECT ${name} AS t, CAST(id AS TEXT) AS r FROM access_log WHERE ${REFUSALS_LOGGED}`
          : sql`SELECT ${name} AS t, ${db.dialect.rowJson(table)} AS r FROM ${sql.identifier(name)}`;
  });
  const out = new Map<string, string[]>(tables.map((table) => [getTableName(table), []]));
  for (const { t: name, r } of await db.rows<{ t: string; r: string }>(sql.join(parts, sql` UNION ALL `)))
    out.get(name)!.push(r);
  return new Map([...out].map(([name, rows]) => [name, rows.sort().join('\n')]));
}

export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after.keys()].filter((name) => before.get(name) !== after.get(name));
}
