// What a bulk action would do (docs/decisions/0035-bulk-actions.md), decided before anything is written and
// shared by the preview and the action: the selection, the reports' rights, the target, the changes, and
// the refusals, each saying that nothing changed.
import { asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { BULK_MAX } from '#shared/constants';
import { BULK_MESSAGES, type BulkAction, type bulkPreviewSchema } from '#shared/schemas/signalements';
import type { AppContext } from '#server/context';
import type { ReadOnlyDatabase } from '#server/db/client';
import { forbidden, invalid, notFound } from '#server/errors';
import type { SessionUser } from '../auth/session';
import { canAssignAs, canEditAs, type ReportRights } from './access';
import { ASSIGN_MESSAGES } from './assignees';
import { diff, type Changes } from './history';
import { filterWhere } from './list-filters';
import { resolveFilters } from './list-filters-resolve';
import { applyStatutKind } from './statut-kind';

export type PreviewInput = z.output<typeof bulkPreviewSchema>;
/** What bulk actions receive; their writes are stamped by the context's clock, as the other services' are. */
export type BulkContext = Pick<AppContext, 'db' | 'cipher' | 'calendar' | 'config' | 'clock'>;

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

export interface SelectedReport extends ReportRights {
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
export type Target =
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
export async function plan(ctx: BulkContext, actor: SessionUser, input: PreviewInput, now: Date) {
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
