// Who works on a report (docs/decisions/0028): assign and unassign, by the report's creator or an
// administrator. Each change is one transaction with its history entry, its access-log entry (« droits »)
// and, for an assignment, the assignee's e-mail.
import { and, asc, eq, getTableName, sql, type AnyColumn } from 'drizzle-orm';
import type { AssignationDto } from '#shared/dto/signalements';
import type { AppContext, Stamping } from '#server/context';
import type { Database, Orm, ReadOnlyDatabase } from '#server/db/client';
import { conflict, forbidden, invalid, notFound } from '#server/errors';
import type { SessionUser } from '../auth/session';
import { recordAssignmentChange } from '../journal/record';
import { enqueueMail } from '../mail/outbox';
import { assignmentMail, reportLink } from '../mail/templates';
import { iri } from '../referentiels/dto';
import { canAssignAs, findSignalement, type SignalementRow } from './access';
import { staffRef } from './staff-ref';
import { recordChange } from './history';

export const ASSIGN_MESSAGES = {
  forbidden: 'Seuls le créateur du signalement et les administrateurs peuvent modifier ses assignations.',
  unknownUser: 'Utilisateur introuvable.',
  disabledUser: 'Seul un membre actif de l’équipe peut être assigné.',
  alreadyAssigned: 'Cet utilisateur est déjà assigné à ce signalement.',
  notAssigned: "Cet utilisateur n'est pas assigné à ce signalement.",
} as const;

const assignationIri = (report: string, user: string) =>
  `${iri('signalements', report)}/assignes/${encodeURIComponent(user)}`;

/**
 * One column of the user who made an assignment, as a correlated subselect on an alias of `utilisateurs`:
 * drizzle's `alias()` is per dialect and types the rows `never` on the union Orm, raw SQL types them.
 */
function assignerColumn(db: ReadOnlyDatabase, column: AnyColumn) {
  const { signalementAssignees: a, utilisateurs: u } = db.t;
  const by = sql.identifier('assigner');
  // Named with its table: the outer query's own `utilisateurs` is the assignee.
  const assignedById = sql`${sql.identifier(getTableName(a))}.${sql.identifier(a.assignedById.name)}`;
  return sql<
    string | null
  >`(select ${by}.${sql.identifier(column.name)} from ${u} ${by} where ${by}.${sql.identifier(u.id.name)} = ${assignedById})`;
}

/** The assignees of one report, by name, with who assigned them (in a transaction, as it sees them). */
export async function listAssignees(db: ReadOnlyDatabase, code: string): Promise<AssignationDto[]> {
  const report = await findSignalement(db, code);
  const { signalementAssignees: a, utilisateurs: u } = db.t;
  const rows = await db.read
    .select({
      code: u.code,
      nomPrenom: u.nomPrenom,
      byCode: assignerColumn(db, u.code),
      byName: assignerColumn(db, u.nomPrenom),
      at: a.assignedAt,
    })
    .from(a)
    .innerJoin(u, eq(u.id, a.userId))
    .where(eq(a.signalementId, report.id))
    .orderBy(asc(u.nomPrenom), asc(u.id));
  return rows.map((r) => ({
    '@id': assignationIri(report.code, r.code),
    '@type': 'Assignation',
    utilisateur: staffRef(r),
    assignedBy:
      r.byCode === null || r.byName === null ? null : staffRef({ code: r.byCode, nomPrenom: r.byName }),
    assignedAt: r.at.toISOString(),
  }));
}

async function findAssignable(db: Database, actor: SessionUser, code: string, tx: Orm) {
  const report = await findSignalement(db, code, tx);
  if (!canAssignAs(actor)(report)) throw forbidden(ASSIGN_MESSAGES.forbidden);
  return report;
}

async function findUser(db: Database, tx: Orm, code: string) {
  const u = db.t.utilisateurs;
  const [user] = await tx
    .select({ id: u.id, code: u.code, email: u.email, nomPrenom: u.nomPrenom, isEnabled: u.isEnabled })
    .from(u)
    .where(eq(u.code, code))
    .limit(1);
  return user;
}

/** The names of a report's assignees, for its history (old → new). */
async function assigneeNames(db: Database, tx: Orm, reportId: number): Promise<string[]> {
  const { signalementAssignees: a, utilisateurs: u } = db.t;
  const rows = await tx
    .select({ nomPrenom: u.nomPrenom })
    .from(a)
    .innerJoin(u, eq(u.id, a.userId))
    .where(eq(a.signalementId, reportId))
    .orderBy(asc(u.nomPrenom), asc(u.id));
  return rows.map((r) => r.nomPrenom);
}

/** What an assignment reads: the database, the clock that stamps it, the public address its e-mail links to. */
export type AssignContext = Pick<AppContext, 'db' | 'clock' | 'config'>;

/**
 * Assigns an enabled user to the report and e-mails them a link to it (not when they assign themselves).
 * Assigning someone already assigned is a conflict: nothing changes and no second e-mail leaves.
 */
export async function assign(
  ctx: AssignContext,
  actor: SessionUser,
  code: string,
  userCode: string,
): Promise<AssignationDto> {
  const { db } = ctx;
  const assigned = await db.transaction(async (tx) => {
    const report = await findAssignable(db, actor, code, tx);
    const user = await findUser(db, tx, userCode);
    if (!user) throw invalid(ASSIGN_MESSAGES.unknownUser, { propertyPath: 'utilisateur' });
    if (!user.isEnabled) throw invalid(ASSIGN_MESSAGES.disabledUser, { propertyPath: 'utilisateur' });
    const before = await assigneeNames(db, tx, report.id);
    const inserted = await tx
      .insert(db.t.signalementAssignees)
      .values({
        signalementId: report.id,
        userId: user.id,
        assignedById: actor.id,
        assignedAt: ctx.clock.now(),
      })
      .onConflictDoNothing()
      .returning({ userId: db.t.signalementAssignees.userId });
    if (inserted.length === 0) throw conflict(ASSIGN_MESSAGES.alreadyAssigned);
    await recordChange(ctx, tx, report.id, actor, 'assignation', {
      assignes: { from: before, to: await assigneeNames(db, tx, report.id) },
    });
    await recordAssignmentChange(
      ctx,
      actor,
      report.code,
      { action: 'assignation', utilisateur: user.code },
      tx,
    );
    if (user.id !== actor.id) {
      await enqueueMail(
        db,
        assignmentMail({
          to: user.email,
          nomPrenom: user.nomPrenom,
          code: report.code,
          by: actor.nomPrenom,
          link: reportLink(ctx.config.PUBLIC_URL, report.code),
        }),
      );
    }
    return (await listAssignees(db, report.code)).find((x) => x.utilisateur.code === user.code)!;
  });
  return assigned;
}

/** Removes one assignee; the report stays with its other assignees, or shows « Non assigné ». */
export async function unassign(
  ctx: Stamping,
  actor: SessionUser,
  code: string,
  userCode: string,
): Promise<void> {
  const { db } = ctx;
  await db.transaction(async (tx) => {
    const report = await findAssignable(db, actor, code, tx);
    const user = await findUser(db, tx, userCode);
    if (!user || !report.assigneeIds.includes(user.id)) throw notFound(ASSIGN_MESSAGES.notAssigned);
    await removeAssignment(ctx, tx, actor, report, user);
  });
}

async function removeAssignment(
  ctx: Stamping,
  tx: Orm,
  actor: SessionUser,
  report: Pick<SignalementRow, 'id' | 'code'>,
  user: { id: number; code: string },
  motif?: 'compte_desactive',
) {
  const { db } = ctx;
  const a = db.t.signalementAssignees;
  const before = await assigneeNames(db, tx, report.id);
  await tx.delete(a).where(and(eq(a.signalementId, report.id), eq(a.userId, user.id)));
  await recordChange(ctx, tx, report.id, actor, 'desassignation', {
    assignes: { from: before, to: await assigneeNames(db, tx, report.id) },
  });
  await recordAssignmentChange(
    ctx,
    actor,
    report.code,
    { action: 'desassignation', utilisateur: user.code, ...(motif ? { motif } : {}) },
    tx,
  );
}

/**
 * A disabled account keeps no report (docs/decisions/0028): every assignment of `user` ends in the
 * caller's transaction, each with its history and access-log entry, so a report nobody else has shows
 * « Non assigné » instead of belonging to someone who can no longer act on it.
 */
export async function unassignDisabledUser(
  ctx: Stamping,
  tx: Orm,
  actor: SessionUser,
  user: { id: number; code: string },
): Promise<number> {
  const { signalementAssignees: a, signalements: s } = ctx.db.t;
  const reports = await tx
    .select({ id: s.id, code: s.code })
    .from(a)
    .innerJoin(s, eq(s.id, a.signalementId))
    .where(eq(a.userId, user.id))
    .orderBy(asc(s.id));
  for (const report of reports) await removeAssignment(ctx, tx, actor, report, user, 'compte_desactive');
  return reports.length;
}
