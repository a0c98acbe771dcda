// The report history: one row per change (who, when, which fields, old → new), written in the same
// transaction as the change. Recording a change also moves lastActionAt (docs/decisions/0011).
import { desc, eq } from 'drizzle-orm';
import type { HistoriqueEntryDto } from '#shared/dto/signalements';
import { cipherOf, type Services, type Stamping, type WithCipher } from '#server/context';
import type { DataCipher } from '#server/crypto/cipher';
import { openSourceChanges, sealSourceChanges } from '#server/crypto/sources';
import type { Orm } from '#server/db/client';
import type { SessionUser } from '../auth/session';
import { recordHistoryRead } from '../journal/record';
import { canSeeSources, findSignalement, type SignalementRow } from './access';

export type Changes = Record<string, { from: unknown; to: unknown }>;

/** Field-by-field differences between two snapshots; values compared as JSON. */
export function diff(before: Record<string, unknown>, after: Record<string, unknown>): Changes {
  const changes: Changes = {};
  for (const key of Object.keys(after)) {
    const from = before[key] ?? null;
    const to = after[key] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[key] = { from, to };
  }
  return changes;
}

export interface RecordOptions {
  /**
   * lastActionAt given explicitly by the caller (PATCH); otherwise the time of this change. 'written':
   * the caller's own write already set it (a create's insert), so no update follows.
   */
  lastActionAt?: Date | null | 'written';
  /** The data cipher: required by a change of a source (its values are stored encrypted). */
  cipher?: DataCipher | null;
}

/** Writes one change of the report in `tx`, at the time of the context's clock. */
export async function recordChange(
  ctx: Stamping,
  tx: Orm,
  signalementId: number,
  actor: SessionUser,
  action: string,
  changes: Changes,
  options: RecordOptions = {},
): Promise<void> {
  const { db } = ctx;
  const at = ctx.clock.now();
  // A source's name and contact stay encrypted in its history too (docs/decisions/0017).
  const stored = isSourceAction(action) ? sealSourceChanges(cipherOf(options), changes) : changes;
  await tx
    .insert(db.t.signalementHistorique)
    .values({ signalementId, userId: actor.id, at, action, changes: stored });
  if (options.lastActionAt === 'written') return;
  const lastActionAt = options.lastActionAt === undefined ? at : options.lastActionAt;
  await tx.update(db.t.signalements).set({ lastActionAt }).where(eq(db.t.signalements.id, signalementId));
}

/**
 * The report's history, newest first. The author is named (code and name, no e-mail: the panel shows
 * the name). For a caller who may not know an anonymous report's sources (need to know,
 * docs/decisions/0015), the entries about its sources keep their action, time, author and the names of
 * the fields that changed, with every value replaced by null and `masque: true`. A history holding
 * entries about the report's people is a read of its people: it is written in the access log before it
 * is returned (one without such entries names nobody and is not logged).
 */
export async function listHistorique(
  ctx: Services,
  actor: SessionUser,
  code: string,
): Promise<HistoriqueEntryDto[]> {
  const report = await findSignalement(ctx.db, code);
  const entries = await readHistorique(ctx, actor, report);
  const people = entries.filter((e) => isPeopleAction(e.action));
  if (people.length > 0) {
    await recordHistoryRead(ctx, actor, report.code, {
      entrees: entries.length,
      personnes: people.length,
      masquees: people.filter((e) => e.masque).length,
    });
  }
  return entries;
}

/** The history as listHistorique answers it, not logged: for a caller that logs the read itself (the print view). */
export async function readHistorique(
  ctx: WithCipher,
  actor: SessionUser,
  report: SignalementRow,
): Promise<HistoriqueEntryDto[]> {
  const { db } = ctx;
  const { signalementHistorique: h, utilisateurs: u } = db.t;
  const hideSources = !canSeeSources(actor, report);
  const cipher = hideSources ? null : cipherOf(ctx);
  const rows = await db.read
    .select({
      id: h.id,
      at: h.at,
      action: h.action,
      changes: h.changes,
      user: { code: u.code, nomPrenom: u.nomPrenom },
    })
    .from(h)
    .leftJoin(u, eq(u.id, h.userId))
    .where(eq(h.signalementId, report.id))
    .orderBy(desc(h.at), desc(h.id));
  return rows.map((r) => {
    const entry: HistoriqueEntryDto = {
      id: r.id,
      at: r.at.toISOString(),
      action: r.action,
      user: r.user && r.user.code !== null ? r.user : null,
      changes: r.changes,
    };
    if (hideSources && (isSourceAction(r.action) || isEvidenceAction(r.action))) {
      entry.changes = Object.fromEntries(
        Object.keys(r.changes).map((field) => [field, { from: null, to: null }]),
      );
      entry.masque = true;
    } else if (cipher && isSourceAction(r.action)) {
      entry.changes = openSourceChanges(cipher, r.changes as Changes);
    }
    return entry;
  });
}

/** Entries that carry a person's fields (authors, sources, victims). */
export const isPeopleAction = (action: string) => /^(auteur|source|victime)\./.test(action);

export const isSourceAction = (action: string) => action.startsWith('source.');

/** Entries about evidence files: their names may identify a source, so they follow the sources' need to know (0033). */
export const isEvidenceAction = (action: string) => action.startsWith('piece_jointe.');
