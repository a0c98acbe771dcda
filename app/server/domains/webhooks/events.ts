// The events of the webhooks (docs/decisions/0039-signed-webhooks.md): a report of a partner with an
// endpoint changes statut, résultat or niveau → one row per endpoint in webhook_deliveries, inserted in the
// transaction of the change. Codes and statuses only: never a person, a text or a source.
import { randomBytes } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { Database, Orm } from '#server/db/client';

export const WEBHOOK_EVENT_TYPE = 'signalement.modifie';
export const WATCHED_FIELDS = ['statut', 'resultat', 'niveau'] as const;
type Watched = (typeof WATCHED_FIELDS)[number];

/** What an event says of a report: its code, its partner's, and the codes of the watched fields. */
export interface WebhookState {
  code: string;
  partenaireId: number;
  partenaire: string;
  statut: string | null;
  resultat: string | null;
  niveau: string | null;
}

export interface WebhookPayload {
  type: typeof WEBHOOK_EVENT_TYPE;
  timestamp: string;
  data: {
    signalement: string;
    partenaire: string;
    changements: Partial<Record<Watched, { avant: string | null; apres: string | null }>>;
  };
}

type Listener = (db: Database) => void;
const listeners = new Set<Listener>();

/** Lets the webhook worker of `db` wake up when an event is queued; returns the unsubscribe function. */
export function onWebhookQueued(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function notifyWebhookQueued(db: Database): void {
  for (const listener of listeners) listener(db);
}

/** Rows per multi-row INSERT: 500 rows of 5 values stay far below SQLite's parameter limit. */
const CHUNK = 500;

/**
 * The watched fields of the reports among `ids` whose partner has an enabled endpoint (the others need no
 * event, and cost one cheap statement): call it in the transaction, before and after the change.
 */
export async function webhookStates(db: Database, tx: Orm, ids: readonly number[]) {
  const states = new Map<number, WebhookState>();
  if (ids.length === 0) return states;
  const {
    signalements: s,
    partenaires: p,
    statuts: st,
    resultats: r,
    niveaux: n,
    webhookEndpoints: e,
  } = db.t;
  const watched = tx.select({ id: e.partenaireId }).from(e).where(eq(e.isEnabled, true));
  const rows = await tx
    .select({
      id: s.id,
      code: s.code,
      partenaireId: s.partenaireId,
      partenaire: p.code,
      statut: st.code,
      resultat: r.code,
      niveau: n.code,
    })
    .from(s)
    .innerJoin(p, eq(p.id, s.partenaireId))
    .leftJoin(st, eq(st.id, s.statutId))
    .leftJoin(r, eq(r.id, s.resultatId))
    .leftJoin(n, eq(n.id, s.niveauId))
    .where(and(db.dialect.idList(s.id, ids), inArray(s.partenaireId, watched)))
    // In report order: a bulk action's events are queued (and delivered) in that order on both engines, not
    // in whatever order PostgreSQL's plan returns the rows.
    .orderBy(s.id);
  for (const { id, ...row } of rows) {
    states.set(Number(id), { ...row, partenaireId: Number(row.partenaireId) });
  }
  return states;
}

export function newEventId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

/**
 * Queues one delivery per enabled endpoint of each report whose watched fields differ between `before`
 * and `after` (webhookStates of the same ids), in the transaction; the worker is woken once it commits.
 */
export async function enqueueWebhookEvents(
  db: Database,
  tx: Orm,
  before: Map<number, WebhookState>,
  after: Map<number, WebhookState>,
  at: Date,
): Promise<number> {
  const events: Array<{ reportId: number; partenaireId: number; payload: WebhookPayload }> = [];
  for (const [reportId, now] of after) {
    const was = before.get(reportId);
    if (!was) continue;
    const changements: WebhookPayload['data']['changements'] = {};
    for (const field of WATCHED_FIELDS) {
      if (was[field] !== now[field]) changements[field] = { avant: was[field], apres: now[field] };
    }
    if (Object.keys(changements).length === 0) continue;
    events.push({
      reportId,
      partenaireId: now.partenaireId,
      payload: {
        type: WEBHOOK_EVENT_TYPE,
        timestamp: at.toISOString(),
        data: { signalement: now.code, partenaire: now.partenaire, changements },
      },
    });
  }
  if (events.length === 0) return 0;
  const e = db.t.webhookEndpoints;
  const endpoints = await tx
    .select({ id: e.id, partenaireId: e.partenaireId })
    .from(e)
    .where(
      and(eq(e.isEnabled, true), inArray(e.partenaireId, [...new Set(events.map((x) => x.partenaireId))])),
    )
    .orderBy(e.id);
  const rows = events.flatMap((event) =>
    endpoints
      .filter((endpoint) => Number(endpoint.partenaireId) === event.partenaireId)
      .map((endpoint) => ({
        eventId: newEventId(),
        endpointId: Number(endpoint.id),
        signalementId: event.reportId,
        eventType: WEBHOOK_EVENT_TYPE,
        payload: JSON.stringify(event.payload),
        nextAttemptAt: at,
      })),
  );
  for (let i = 0; i < rows.length; i += CHUNK) {
    await tx.insert(db.t.webhookDeliveries).values(rows.slice(i, i + CHUNK));
  }
  if (rows.length > 0) db.afterCommit(() => notifyWebhookQueued(db));
  return rows.length;
}
