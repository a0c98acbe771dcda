// « Mes dossiers » on the dashboard (docs/decisions/0028): the open reports assigned to me and those of them
// overdue, and for administrators the open reports nobody has and every overdue report (docs/decisions/0032).
// Open: not treated (a statut of the open kind, or none); overdue: overdueCondition (delais/conditions.ts).
import { and, count, eq, exists, inArray, not, sql, type SQL } from 'drizzle-orm';
import { systemClock, type ListContext } from '#server/context';
import { isAdmin } from '../auth/guards';
import type { SessionUser } from '../auth/session';
import { overdueCondition } from '../delais/conditions';

export interface MyCasesDto {
  /** Open reports assigned to the caller. */
  ouverts: number;
  /** Of those, the overdue ones. */
  enRetard: number;
  /** Open reports with no assignee: administrators only (null for others). */
  nonAssignes: number | null;
  /** Every overdue report: administrators only (null for others). */
  enRetardTous: number | null;
}

export async function myCases(
  ctx: Pick<ListContext, 'db' | 'calendar' | 'clock'>,
  actor: SessionUser,
): Promise<MyCasesDto> {
  const { db } = ctx;
  const { signalements: s, signalementAssignees: a } = db.t;
  const today = ctx.calendar.dayNumber((ctx.clock ?? systemClock).now());
  const open = eq(s.isTreated, false);
  const overdue = overdueCondition(db, today);
  const assignedToMe = inArray(
    s.id,
    db.read.select({ id: a.signalementId }).from(a).where(eq(a.userId, actor.id)),
  );
  const counted = async (where: SQL | undefined) => {
    const [row] = await db.read.select({ n: count() }).from(s).where(where);
    return Number(row?.n ?? 0);
  };
  const admin = isAdmin(actor);
  const unassigned = not(
    exists(
      db.read
        .select({ one: sql`1` })
        .from(a)
        .where(eq(a.signalementId, s.id)),
    ),
  );
  const [ouverts, enRetard, nonAssignes, enRetardTous] = await Promise.all([
    counted(and(open, assignedToMe)),
    counted(and(overdue, assignedToMe)),
    admin ? counted(and(open, unassigned)) : null,
    admin ? counted(overdue) : null,
  ]);
  return { ouverts, enRetard, nonAssignes, enRetardTous };
}
