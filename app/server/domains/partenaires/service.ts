// Partners (spec §2 Partners, §3, §6): any logged-in user reads them (the report list filters on
// them), only an administrator creates, edits or deletes one.
import { asc, count, eq, getTableName, like, sql } from 'drizzle-orm';
import { INTERNAL_PARTNER_CODE } from '#shared/constants';
import type { ListPartenairesInput, PartenaireInput } from '#shared/schemas/partenaires';
import type { Database, Orm } from '#server/db/client';
import { insertWithFreshCode } from '#server/db/fresh-code';
import { foldedMatch, idIn } from '#server/db/folded-search';
import { conflict, notFound } from '#server/errors';
import { requireAdmin } from '../auth/guards';
import type { SessionUser } from '../auth/session';
import { partenaireDto, type PartenaireDto } from './dto';
import { firstFreeCode, leastUsedColor, partnerCodeBase, partnerInitial } from './naming';

export const PARTENAIRE_RULES = {
  notFound: 'Partenaire introuvable.',
  linked: 'Ce partenaire ne peut pas être supprimé car il est lié à des projets ou des signalements.',
  internal: 'Le partenaire interne Ivorary ne peut pas être supprimé.',
} as const;

function columns(db: Database) {
  const { partenaires: p, projects, signalements } = db.t;
  // Written out in full: in a one-table select Drizzle leaves column names unqualified, and a bare "id"
  // inside the subquery would name the subquery's own table.
  const partnerId = sql`${sql.identifier(getTableName(p))}.${sql.identifier(p.id.name)}`;
  return {
    code: p.code,
    designation: p.designation,
    email: p.email,
    phoneNumber: p.phoneNumber,
    initial: p.initial,
    color: p.color,
    // Correlated counts use the owner and partner indexes; the dialect decodes them (a bigint on PostgreSQL).
    projectsCount:
      sql<number>`(select count(*) from ${projects} where ${projects.ownerId} = ${partnerId})`.mapWith(
        db.dialect.count,
      ),
    signalementsCount:
      sql<number>`(select count(*) from ${signalements} where ${signalements.partenaireId} = ${partnerId})`.mapWith(
        db.dialect.count,
      ),
  };
}

/** Designation, code or e-mail contains the term, ignoring case and accents (see foldedMatch). */
async function searchCondition(db: Database, search: string | undefined) {
  if (!search?.trim()) return undefined;
  const { partenaires: p } = db.t;
  const rows = await db.read
    .select({ id: p.id, designation: p.designation, code: p.code, email: p.email })
    .from(p);
  return idIn(
    p.id,
    foldedMatch(rows, (r) => [r.designation, r.code, r.email], search),
  );
}

export async function listPartenaires(
  db: Database,
  _actor: SessionUser,
  input: ListPartenairesInput,
): Promise<{ items: PartenaireDto[]; total: number }> {
  const { partenaires: p } = db.t;
  const where = await searchCondition(db, input.search);
  const [totalRow] = await db.read.select({ n: count() }).from(p).where(where);
  const rows = await db.read
    .select(columns(db))
    .from(p)
    .where(where)
    .orderBy(asc(p.designation), asc(p.id))
    .limit(input.itemsPerPage)
    .offset((input.page - 1) * input.itemsPerPage);
  return { items: rows.map(partenaireDto), total: Number(totalRow?.n ?? 0) };
}

async function findPartenaire(db: Database, reader: Orm, code: string): Promise<PartenaireDto | null> {
  const [row] = await reader
    .select(columns(db))
    .from(db.t.partenaires)
    .where(eq(db.t.partenaires.code, code))
    .limit(1);
  return row ? partenaireDto(row) : null;
}

export async function getPartenaire(db: Database, _actor: SessionUser, code: string): Promise<PartenaireDto> {
  const found = await findPartenaire(db, db.read, code);
  if (!found) throw notFound(PARTENAIRE_RULES.notFound);
  return found;
}

export async function createPartenaire(
  db: Database,
  actor: SessionUser,
  input: PartenaireInput,
): Promise<PartenaireDto> {
  requireAdmin(actor);
  const { partenaires: p } = db.t;
  const base = partnerCodeBase(input.designation);
  return db.transaction(async (tx) => {
    // The first free code of the designation's base, read again after a conflict: another process that
    // took the same code between our read and our insert (PostgreSQL) has committed it by then.
    const freeCode = async () => {
      const taken = await tx
        .select({ code: p.code })
        .from(p)
        .where(like(p.code, `${base}%`));
      return firstFreeCode(base, new Set(taken.map((row) => row.code)));
    };
    const usage = await tx.select({ color: p.color, n: count() }).from(p).groupBy(p.color);
    const color = leastUsedColor(new Map(usage.map((row) => [row.color, Number(row.n)])));
    const row = await insertWithFreshCode(
      'partner',
      freeCode,
      async (code) =>
        (
          await tx
            .insert(p)
            .values({
              code,
              designation: input.designation,
              email: input.email,
              phoneNumber: input.phoneNumber,
              initial: partnerInitial(input.designation),
              color,
            })
            .onConflictDoNothing({ target: p.code })
            .returning({ code: p.code })
        )[0],
    );
    return (await findPartenaire(db, tx, row.code))!;
  });
}

/** PUT: designation, e-mail and phone; the code, initial and colour chosen at creation stay. */
export async function updatePartenaire(
  db: Database,
  actor: SessionUser,
  code: string,
  input: PartenaireInput,
): Promise<PartenaireDto> {
  requireAdmin(actor);
  const { partenaires: p } = db.t;
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(p)
      .set({ designation: input.designation, email: input.email, phoneNumber: input.phoneNumber })
      .where(eq(p.code, code))
      .returning({ id: p.id });
    if (updated.length === 0) throw notFound(PARTENAIRE_RULES.notFound);
    return (await findPartenaire(db, tx, code))!;
  });
}

export async function deletePartenaire(db: Database, actor: SessionUser, code: string): Promise<void> {
  requireAdmin(actor);
  if (code === INTERNAL_PARTNER_CODE) throw conflict(PARTENAIRE_RULES.internal);
  try {
    await db.transaction(async (tx) => {
      const found = await findPartenaire(db, tx, code);
      if (!found) throw notFound(PARTENAIRE_RULES.notFound);
      if (found.projectsCount > 0 || found.signalementsCount > 0) throw conflict(PARTENAIRE_RULES.linked);
      await tx.delete(db.t.partenaires).where(eq(db.t.partenaires.code, code));
    });
  } catch (error) {
    // A report or project added for this partner while we were deleting it: the foreign key refuses.
    if (db.dialect.isForeignKeyViolation(error)) throw conflict(PARTENAIRE_RULES.linked);
    throw error;
  }
}
