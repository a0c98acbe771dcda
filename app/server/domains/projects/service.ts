import { and, asc, eq, inArray, like, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ProjectDto } from '#shared/dto/signalements';
import type { projectCreateSchema } from '#shared/schemas/signalements';
import type { Database, Orm } from '#server/db/client';
import { insertWithFreshCode } from '#server/db/fresh-code';
import { conflict, forbidden } from '#server/errors';
import { isAdmin } from '../auth/guards';
import type { SessionUser } from '../auth/session';
import { projectDto } from '../referentiels/dto';
import { idOf } from '../signalements/access';
import { generateCode } from '../signalements/code';
import { normalizeSearch } from '../signalements/search-text';

export async function listProjects(
  db: Database,
  filters: { partenaire?: string; search?: string },
): Promise<ProjectDto[]> {
  const { projects: p, partenaires: o } = db.t;
  const term = filters.search ? normalizeSearch(filters.search) : '';
  const rows = await db.read
    .select({
      project: { code: p.code, sigle: p.sigle, designation: p.designation, description: p.description },
      owner: { code: o.code, designation: o.designation, initial: o.initial, color: o.color },
    })
    .from(p)
    .innerJoin(o, eq(o.id, p.ownerId))
    .where(
      and(
        filters.partenaire ? eq(o.code, filters.partenaire) : undefined,
        term
          ? or(like(sql`lower(${p.sigle})`, `%${term}%`), like(sql`lower(${p.designation})`, `%${term}%`))
          : undefined,
      ),
    )
    .orderBy(asc(p.sigle), asc(p.id))
    .limit(500);
  return rows.map((r) => projectDto(r.project, r.owner));
}

/** Inside a transaction, db.read is the transaction: it sees a project the transaction has just created. */
export async function getProject(db: Database, code: string): Promise<ProjectDto | undefined> {
  const { projects: p, partenaires: o } = db.t;
  const [row] = await db.read
    .select({
      project: { code: p.code, sigle: p.sigle, designation: p.designation, description: p.description },
      owner: { code: o.code, designation: o.designation, initial: o.initial, color: o.color },
    })
    .from(p)
    .innerJoin(o, eq(o.id, p.ownerId))
    .where(eq(p.code, code));
  return row ? projectDto(row.project, row.owner) : undefined;
}

export const PROJECT_FORBIDDEN_MESSAGE =
  "Vous ne pouvez créer un projet que pour le partenaire d'un signalement que vous avez créé.";

/**
 * Least privilege (docs/decisions/0015): an administrator creates a project for any partner; another
 * user only for the partner of a report they may edit (one they created, matched by e-mail as
 * access.ts does), which is what the classification panel of the detail screen offers.
 */
async function assertMayCreateProjectFor(db: Database, tx: Orm, actor: SessionUser, ownerId: number) {
  if (isAdmin(actor)) return;
  const { signalements: s, utilisateurs: u } = db.t;
  const [mine] = await tx
    .select({ id: s.id })
    .from(s)
    .where(
      and(
        eq(s.partenaireId, ownerId),
        inArray(
          s.createdById,
          tx
            .select({ id: u.id })
            .from(u)
            .where(sql`lower(${u.email}) = ${actor.email.toLowerCase()}`),
        ),
      ),
    )
    .limit(1);
  if (!mine) throw forbidden(PROJECT_FORBIDDEN_MESSAGE);
}

/** Creates a project for a partner (rights above). A partner cannot have two projects with the same sigle. */
export async function createProject(
  db: Database,
  actor: SessionUser,
  input: z.output<typeof projectCreateSchema>,
): Promise<ProjectDto> {
  const { projects: p } = db.t;
  return db.transaction(async (tx) => {
    const ownerId = await idOf(tx, db.t.partenaires, input.owner, 'Partenaire');
    await assertMayCreateProjectFor(db, tx, actor, ownerId);
    // Compared here rather than with SQL lower(): SQLite's folds ASCII only ('Ñ' stays 'Ñ'), PostgreSQL's
    // folds every letter, and the same sigle must be refused on both engines.
    const sigle = input.sigle.toLowerCase();
    const siblings = await tx.select({ sigle: p.sigle }).from(p).where(eq(p.ownerId, ownerId));
    if (siblings.some((row) => row.sigle.toLowerCase() === sigle))
      throw conflict(`Ce partenaire a déjà un projet « ${input.sigle} ».`);
    const row = await insertWithFreshCode(
      'project',
      () => generateCode('PRJ'),
      async (code) =>
        (
          await tx
            .insert(p)
            .values({
              code,
              sigle: input.sigle,
              designation: input.designation,
              description: input.description,
              ownerId,
            })
            .onConflictDoNothing({ target: p.code })
            .returning({ code: p.code })
        )[0],
    );
    return (await getProject(db, row.code))!;
  });
}
