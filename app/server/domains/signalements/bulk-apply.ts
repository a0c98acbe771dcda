// The writes of a bulk action (docs/decisions/0035-bulk-actions.md), inside its transaction: the changed
// reports' niveau, statut or assignees, then one history entry per report, in chunks.
import { asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Database, Orm } from '#server/db/client';
import { refreshDueDays } from '#server/db/due-days';
import type { SessionUser } from '../auth/session';
import type { SelectedReport, Target } from './bulk-plan';
import type { Changes } from './history';
import { applyStatutKind } from './statut-kind';

/** Rows per multi-row INSERT: 1,000 rows of at most 5 values stay far below SQLite's 32,766 parameters. */
const INSERT_CHUNK = 1000;

function chunks<T>(items: readonly T[], size = INSERT_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
/** Writes the action on the changed reports; returns each one's history entry (action and changes). */
export async function apply(
  db: Database,
  tx: Orm,
  actor: SessionUser,
  reports: SelectedReport[],
  target: Target,
  changed: Map<number, Changes>,
  at: Date,
): Promise<Array<{ id: number; action: string; changes: Changes }>> {
  const { signalements: s, signalementAssignees: a } = db.t;
  const ids = [...changed.keys()];
  switch (target.type) {
    case 'niveau': {
      const before = await niveauNames(db, tx, ids);
      await applyNiveau(db, tx, ids, target.niveau?.id ?? null);
      await refreshDueDays(db, { ids }); // the deadline follows the niveau (docs/decisions/0032-deadlines.md)
      const to = target.niveau?.designation ?? null;
      return ids.map((id) => ({
        id,
        action: 'modification',
        changes: { niveau: { from: before.get(id) ?? null, to } },
      }));
    }
    case 'statut': {
      const { statut } = target;
      const next = new Map(
        reports.filter((r) => changed.has(r.id)).map((r) => [r.id, applyStatutKind(statut.kind, r, at)]),
      );
      const current = new Map(reports.map((r) => [r.id, r.closeAt?.getTime() ?? null]));
      // A closed report keeps its closing day: only the reports whose closeAt moves have it written.
      const keep = ids.filter((id) => (next.get(id)!.closeAt?.getTime() ?? null) === current.get(id));
      const kept = new Set(keep);
      const move = ids.filter((id) => !kept.has(id));
      const isTreated = statut.kind !== 'open';
      // Each changed report's version moves (docs/decisions/0047-edit-conflicts.md): a form opened before
      // the action no longer saves over its statut unseen.
      const version = sql`${s.version} + 1`;
      if (keep.length > 0)
        await tx
          .update(s)
          .set({ statutId: statut.id, isTreated, version })
          .where(db.dialect.idList(s.id, keep));
      if (move.length > 0) {
        const closeAt = statut.kind === 'closed' ? at : null;
        await tx
          .update(s)
          .set({ statutId: statut.id, isTreated, closeAt, version })
          .where(db.dialect.idList(s.id, move));
      }
      await refreshDueDays(db, { ids }); // a treated or closed report is due no more, a reopened one again
      return ids.map((id) => ({ id, action: 'modification', changes: changed.get(id)! }));
    }
    case 'assigner':
    case 'desassigner': {
      const before = await assigneeNames(db, tx, ids);
      if (target.type === 'assigner') {
        for (const part of chunks(ids)) {
          await tx
            .insert(a)
            .values(
              part.map((id) => ({
                signalementId: id,
                userId: target.user.id,
                assignedById: actor.id,
                assignedAt: at,
              })),
            )
            .onConflictDoNothing();
        }
      } else {
        await tx
          .delete(a)
          .where(sql`${a.userId} = ${target.user.id} and ${db.dialect.idList(a.signalementId, ids)}`);
      }
      const after = await assigneeNames(db, tx, ids);
      const action = target.type === 'assigner' ? 'assignation' : 'desassignation';
      return ids.map((id) => ({
        id,
        action,
        changes: { assignes: { from: before.get(id) ?? [], to: after.get(id) ?? [] } },
      }));
    }
  }
}

/**
 * The one place a bulk action writes a niveau (docs/decisions/0035-bulk-actions.md): whatever else a
 * niveau decides for a report belongs here too, in the same transaction. Assignments live in their own
 * table and leave the version alone.
 */
export async function applyNiveau(db: Database, tx: Orm, reportIds: number[], niveauId: number | null) {
  const s = db.t.signalements;
  // The version moves too (docs/decisions/0047-edit-conflicts.md).
  await tx
    .update(s)
    .set({ niveauId, version: sql`${s.version} + 1` })
    .where(db.dialect.idList(s.id, reportIds));
}

async function niveauNames(db: Database, tx: Orm, ids: number[]): Promise<Map<number, string>> {
  const { signalements: s, niveaux: n } = db.t;
  const rows = await tx
    .select({ id: s.id, d: n.designation })
    .from(s)
    .innerJoin(n, eq(n.id, s.niveauId))
    .where(db.dialect.idList(s.id, ids));
  return new Map(rows.map((r) => [Number(r.id), r.d]));
}

/** The names of each report's assignees, in the order of the single assignment's history. */
async function assigneeNames(db: Database, tx: Orm, ids: number[]): Promise<Map<number, string[]>> {
  const { signalementAssignees: a, utilisateurs: u } = db.t;
  const rows = await tx
    .select({ id: a.signalementId, name: u.nomPrenom })
    .from(a)
    .innerJoin(u, eq(u.id, a.userId))
    .where(db.dialect.idList(a.signalementId, ids))
    .orderBy(asc(a.signalementId), asc(u.nomPrenom), asc(u.id));
  const names = new Map<number, string[]>();
  for (const row of rows) {
    const list = names.get(Number(row.id)) ?? [];
    list.push(row.name);
    names.set(Number(row.id), list);
  }
  return names;
}
/** One history entry per changed report (history.ts's shape), in chunks, and their lastActionAt moved. */
export async function recordHistory(
  db: Database,
  tx: Orm,
  actor: SessionUser,
  entries: Array<{ id: number; action: string; changes: Changes }>,
  at: Date,
) {
  const { signalementHistorique: h, signalements: s } = db.t;
  for (const part of chunks(entries)) {
    await tx.insert(h).values(
      part.map((e) => ({
        signalementId: e.id,
        userId: actor.id,
        at,
        action: e.action,
        changes: e.changes,
      })),
    );
  }
  const where: SQL = db.dialect.idList(
    s.id,
    entries.map((e) => e.id),
  );
  await tx.update(s).set({ lastActionAt: at }).where(where);
}
