// « Mes dossiers » on the dashboard (docs/decisions/0028): the open reports assigned to me, and for
// administrators the open reports nobody has. Open: not treated (a statut of the open kind, or none).
import { and, count, eq, exists, inArray, not, sql } from 'drizzle-orm';
import type { ReadOnlyDatabase } from '#server/db/client';
import { isAdmin } from '../auth/guards';
import type { SessionUser } from '../auth/session';

export interface MyCasesDto {
  /** Open reports assigned to the caller. */
  ouverts: number;
  /** Open reports with no assignee: administrators only (null for others). */
  nonAssignes: number | null;
}

export async function myCases(db: ReadOnlyDatabase, actor: SessionUser): Promise<MyCasesDto> {
  const { signalements: s, signalementAssignees: a } = db.t;
  const open = eq(s.isTreated, false);
  const mine = db.read
    .select({ n: count() })
    .from(s)
    .where(
      and(open, inArray(s.id, db.read.select({ id: a.signalementId }).from(a).where(eq(a.userId, actor.id)))),
    );
  const unassigned = isAdmin(actor)
    ? db.read
        .select({ n: count() })
        .from(s)
        .where(
          and(
            open,
            not(
              exists(
                db.read
                  .select({ one: sql`1` })
                  .from(a)
                  .where(eq(a.signalementId, s.id)),
              ),
            ),
          ),
        )
    : undefined;
  const [[m], u] = await Promise.all([mine, unassigned]);
  return { ouverts: Number(m?.n ?? 0), nonAssignes: u ? Number(u[0]?.n ?? 0) : null };
}
