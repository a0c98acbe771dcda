// Bulk actions on the list (docs/decisions/0035-bulk-actions.md): assign, unassign, change the statut or
// the niveau of hand-picked reports or of every report of a filter (up to BULK_MAX). One service behind
// both doors and the preview: the selection is resolved by the list's own filter code, the rights are
// access.ts's for every report, and the action is one transaction with one history entry per report that
// changes, one access-log entry for the whole action and, for an assignment, one e-mail to the assignee.
import { asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { BULK_MAX } from '#shared/constants';
import {
  BULK_MESSAGES,
  type bulkActionInputSchema,
  type BulkAction,
  type bulkPreviewSchema,
} from '#shared/schemas/signalements';
import type { AppContext } from '#server/context';
import type { Database, Orm, ReadOnlyDatabase } from '#server/db/client';
import { refreshDueDays } from '#server/db/due-days';
import { conflict, forbidden, invalid, notFound } from '#server/errors';
import type { SessionUser } from '../auth/session';
import { recordBulkAction } from '../journal/record';
import { enqueueMail } from '../mail/outbox';
import { bulkAssignmentMail, myCasesLink, reportLink } from '../mail/templates';
import { canAssignAs, canEditAs, type ReportRights } from './access';
import { ASSIGN_MESSAGES } from './assignees';
import { diff, type Changes } from './history';
import { filterWhere, resolveFilters } from './list-filters';
import { applyStatutKind } from './statut-kind';
import { enqueueWebhookEvents, webhookStates } from '../webhooks/events';

type PreviewInput = z.output<typeof bulkPreviewSchema>;
type ActionInput = z.output<typeof bulkActionInputSchema>;
type BulkContext = Pick<AppContext, 'db' | 'cipher' | 'calendar' | 'config'>;

const many = (n: number, one: string, several: string) => `${n} ${n > 1 ? several : one}`;

/** The refusals of a bulk action; each says that nothing changed. */
export const BULK_REFUSALS = {
  notFound: (n: number) =>
    `${many(n, 'signalement choisi est introuvable', 'signalements choisis sont introuvables')}. Aucun signalement n'a été modifié.`,
  empty: 'Aucun signalement ne correspond à la sélection.',
  tooMany: `${BULK_MESSAGES.tooMany} Affinez le filtre : aucun signalement n'a été modifié.`,
  notEditable: (n: number, total: number) =>
    `Action refusée : ${n} des ${many(total, 'signalement sélectionné', 'signalements sélectionnés')} ${n > 1 ? 'ne sont pas modifiables' : "n'est pas modifiable"} par vous. Aucun signalement n'a été modifié.`,
  notAssignable: (n: number, total: number) =>
    `Action refusée : seuls le créateur et les administrateurs modifient les assignations, et ce n'est pas votre cas pour ${n} des ${many(total, 'signalement sélectionné', 'signalements sélectionnés')}. Aucun signalement n'a été modifié.`,
  changed: (expected: number, now: number) =>
    `La sélection a changé depuis la confirmation : ${now} signalement(s) à modifier au lieu de ${expected}. Aucun signalement n'a été modifié ; vérifiez la sélection et recommencez.`,
  unknownStatut: (code: string) => `Statut introuvable : ${code}.`,
  unknownNiveau: (code: string) => `Niveau introuvable : ${code}.`,
} as const;

/** What the confirmation states: how many reports are selected and how many the action changes. */
export interface BulkPreviewDto {
  '@type': 'ApercuActionGroupee';
  selectionnes: number;
  modifies: number;
}
export interface BulkResultDto {
  '@type': 'ActionGroupee';
  action: BulkAction['type'];
  selectionnes: number;
  modifies: number;
}

/** Rows per multi-row INSERT: 1,000 rows of at most 5 values stay far below SQLite's 32,766 parameters. */
const INSERT_CHUNK = 1000;

function chunks<T>(items: readonly T[], size = INSERT_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

interface SelectedReport extends ReportRights {
  id: number;
  code: string;
  statutId: number | null;
  statut: string | null;
  isTreated: boolean;
  closeAt: Date | null;
  niveauId: number | null;
}

/**
 * The ids of the selection, read through `db.read` (the transaction's when inside one): the codes, or
 * the list's filters by the list's own code (list-filters.ts), at most BULK_MAX.
 */
async function selectedIds(ctx: BulkContext, actor: SessionUser, input: PreviewInput): Promise<number[]> {
  const { db } = ctx;
  const s = db.t.signalements;
  if (input.codes) {
    // At most BULK_MAX codes, so at most 10,000 parameters: under both engines' limits in one statement.
    const codes = [...new Set(input.codes)];
    const rows = await db.read.select({ id: s.id }).from(s).where(inArray(s.code, codes));
    if (rows.length < codes.length) throw notFound(BULK_REFUSALS.notFound(codes.length - rows.length));
    return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  }
  const r = await resolveFilters(ctx, input.filtre!, actor);
  const rows = await db.read
    .select({ id: s.id })
    .from(s)
    .where(filterWhere(db, r, { mode: 'set', viewer: actor }))
    .orderBy(asc(s.id))
    .limit(BULK_MAX + 1);
  if (rows.length > BULK_MAX) throw invalid(BULK_REFUSALS.tooMany);
  return rows.map((row) => Number(row.id));
}

/** The selected reports with what their rights and the actions need: one statement each, ids as one value. */
async function loadSelected(db: ReadOnlyDatabase, ids: number[]): Promise<SelectedReport[]> {
  const { signalements: s, utilisateurs: u, statuts: st, signalementAssignees: a } = db.t;
  // One after the other: inside the transaction they share its one connection.
  const rows = await db.read
    .select({
      id: s.id,
      code: s.code,
      createdByEmail: u.email,
      statutId: s.statutId,
      statut: st.designation,
      isTreated: s.isTreated,
      closeAt: s.closeAt,
      niveauId: s.niveauId,
    })
    .from(s)
    .innerJoin(u, eq(u.id, s.createdById))
    .leftJoin(st, eq(st.id, s.statutId))
    .where(db.dialect.idList(s.id, ids))
    .orderBy(asc(s.id));
  const assignees = await db.read
    .select({ reportId: a.signalementId, userId: a.userId })
    .from(a)
    .where(db.dialect.idList(a.signalementId, ids));
  const byReport = new Map<number, number[]>();
  for (const row of assignees) {
    const list = byReport.get(Number(row.reportId)) ?? [];
    list.push(Number(row.userId));
    byReport.set(Number(row.reportId), list);
  }
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    statutId: r.statutId === null ? null : Number(r.statutId),
    niveauId: r.niveauId === null ? null : Number(r.niveauId),
    assigneeIds: byReport.get(Number(r.id)) ?? [],
  }));
}

/** The action's target, resolved: the user, the statut or the niveau. */
type Target =
  | { type: 'assigner' | 'desassigner'; user: { id: number; code: string; email: string; nomPrenom: string } }
  | {
      type: 'statut';
      statut: { id: number; code: string; designation: string; kind: 'open' | 'treated' | 'closed' };
    }
  | { type: 'niveau'; niveau: { id: number; code: string; designation: string } | null };

async function resolveTarget(db: ReadOnlyDatabase, action: BulkAction): Promise<Target> {
  const t = db.t;
  switch (action.type) {
    case 'assigner':
    case 'desassigner': {
      const u = t.utilisateurs;
      const [user] = await db.read
        .select({ id: u.id, code: u.code, email: u.email, nomPrenom: u.nomPrenom, isEnabled: u.isEnabled })
        .from(u)
        .where(eq(u.code, action.utilisateur))
        .limit(1);
      if (!user) throw invalid(ASSIGN_MESSAGES.unknownUser, { propertyPath: 'action.utilisateur' });
      if (action.type === 'assigner' && !user.isEnabled)
        throw invalid(ASSIGN_MESSAGES.disabledUser, { propertyPath: 'action.utilisateur' });
      return { type: action.type, user: { ...user, id: Number(user.id) } };
    }
    case 'statut': {
      const st = t.statuts;
      const [statut] = await db.read
        .select({ id: st.id, code: st.code, designation: st.designation, kind: st.kind })
        .from(st)
        .where(eq(st.code, action.statut))
        .limit(1);
      if (!statut)
        throw invalid(BULK_REFUSALS.unknownStatut(action.statut), { propertyPath: 'action.statut' });
      return { type: 'statut', statut: { ...statut, id: Number(statut.id) } };
    }
    case 'niveau': {
      if (action.niveau === null) return { type: 'niveau', niveau: null };
      const n = t.niveaux;
      const [niveau] = await db.read
        .select({ id: n.id, code: n.code, designation: n.designation })
        .from(n)
        .where(eq(n.code, action.niveau))
        .limit(1);
      if (!niveau)
        throw invalid(BULK_REFUSALS.unknownNiveau(action.niveau), { propertyPath: 'action.niveau' });
      return { type: 'niveau', niveau: { ...niveau, id: Number(niveau.id) } };
    }
  }
}

/** The history fields of a statut change, as the single edit records them (snapshot.ts's names). */
const treatmentFields = (statut: string | null, state: { isTreated: boolean; closeAt: Date | null }) => ({
  statut,
  isTreated: state.isTreated,
  closeAt: state.closeAt?.toISOString() ?? null,
});

/** The reports the action changes, each with its history entry (assignments: filled in once applied). */
function plannedChanges(reports: SelectedReport[], target: Target, now: Date): Map<number, Changes> {
  const changed = new Map<number, Changes>();
  for (const r of reports) {
    switch (target.type) {
      case 'assigner':
        if (!r.assigneeIds.includes(target.user.id)) changed.set(r.id, {});
        break;
      case 'desassigner':
        if (r.assigneeIds.includes(target.user.id)) changed.set(r.id, {});
        break;
      case 'statut': {
        const next = applyStatutKind(target.statut.kind, r, now);
        const changes = diff(treatmentFields(r.statut, r), treatmentFields(target.statut.designation, next));
        if (r.statutId !== target.statut.id || Object.keys(changes).length > 0) changed.set(r.id, changes);
        break;
      }
      case 'niveau':
        if (r.niveauId !== (target.niveau?.id ?? null)) changed.set(r.id, {});
        break;
    }
  }
  return changed;
}

/** Everything the preview and the action decide before writing; throws the refusals (404, 400, 403). */
async function plan(ctx: BulkContext, actor: SessionUser, input: PreviewInput, now: Date) {
  const { db } = ctx;
  const ids = await selectedIds(ctx, actor, input);
  if (ids.length === 0) throw invalid(BULK_REFUSALS.empty);
  const reports = await loadSelected(db, ids);
  const target = await resolveTarget(db, input.action);
  const assigning = target.type === 'assigner' || target.type === 'desassigner';
  const allowed = assigning ? canAssignAs(actor) : canEditAs(actor);
  const refused = reports.filter((r) => !allowed(r)).length;
  if (refused > 0) {
    throw forbidden(
      assigning
        ? BULK_REFUSALS.notAssignable(refused, reports.length)
        : BULK_REFUSALS.notEditable(refused, reports.length),
    );
  }
  return { reports, target, changed: plannedChanges(reports, target, now) };
}

/** How many reports the action would change, with the same refusals as the action (the confirmation). */
export async function previewBulk(
  ctx: BulkContext,
  actor: SessionUser,
  input: PreviewInput,
): Promise<BulkPreviewDto> {
  const { reports, changed } = await plan(ctx, actor, input, new Date());
  return { '@type': 'ApercuActionGroupee', selectionnes: reports.length, modifies: changed.size };
}

/**
 * Runs a bulk action in one transaction: the selection resolved again inside it, every report's right
 * checked, refused as a whole when one is missing or when the count differs from `attendu`.
 */
export async function runBulk(
  ctx: BulkContext,
  actor: SessionUser,
  input: ActionInput,
): Promise<BulkResultDto> {
  const { db } = ctx;
  return db.transaction(async (tx) => {
    const at = new Date();
    const { reports, target, changed } = await plan(ctx, actor, input, at);
    if (input.attendu !== undefined && input.attendu !== changed.size)
      throw conflict(BULK_REFUSALS.changed(input.attendu, changed.size));
    const ids = [...changed.keys()];
    if (ids.length > 0) {
      // The partners' endpoints hear of a new statut or niveau (docs/decisions/0039-signed-webhooks.md).
      const watched = target.type === 'statut' || target.type === 'niveau';
      const before = watched ? await webhookStates(db, tx, ids) : new Map();
      const history = await apply(db, tx, actor, reports, target, changed, at);
      await recordHistory(db, tx, actor, history, at);
      if (before.size > 0) await enqueueWebhookEvents(db, tx, before, await webhookStates(db, tx, ids), at);
    }
    const selection = input.codes
      ? { selection: 'codes' as const }
      : { selection: 'filtre' as const, filtres: withInstants(ctx, input.filtre!) };
    await recordBulkAction(
      ctx,
      actor,
      {
        action: target.type,
        ...targetCode(target),
        ...selection,
        selectionnes: reports.length,
        modifies: ids.length,
      },
      tx,
    );
    if (target.type === 'assigner' && ids.length > 0 && target.user.id !== actor.id) {
      const codes = reports.filter((r) => changed.has(r.id)).map((r) => r.code);
      const link =
        codes.length === 1
          ? reportLink(ctx.config.PUBLIC_URL, codes[0]!)
          : myCasesLink(ctx.config.PUBLIC_URL, target.user.code);
      await enqueueMail(
        db,
        bulkAssignmentMail({
          to: target.user.email,
          nomPrenom: target.user.nomPrenom,
          codes,
          by: actor.nomPrenom,
          link,
        }),
      );
    }
    return {
      '@type': 'ActionGroupee',
      action: target.type,
      selectionnes: reports.length,
      modifies: ids.length,
    };
  });
}

const targetCode = (target: Target) =>
  target.type === 'statut'
    ? { statut: target.statut.code }
    : target.type === 'niveau'
      ? { niveau: target.niveau?.code ?? null }
      : { utilisateur: target.user.code };

/** The filters as logged, dates as instants of the business calendar (as the export logs them). */
function withInstants(
  ctx: BulkContext,
  filtre: NonNullable<PreviewInput['filtre']>,
): Record<string, unknown> {
  const { signalementAt: at, ...rest } = filtre;
  if (!at) return rest;
  return {
    ...rest,
    signalementAt: {
      ...(at.after && { after: ctx.calendar.instant(at.after) }),
      ...(at.before && { before: ctx.calendar.instant(at.before) }),
    },
  };
}

/** Writes the action on the changed reports; returns each one's history entry (action and changes). */
async function apply(
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
async function recordHistory(
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
