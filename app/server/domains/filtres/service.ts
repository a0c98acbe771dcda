// Saved filters « Mes filtres » (docs/decisions/0046-saved-filters.md). A personal filter is seen and managed
// by its owner only; a shared one is seen by every staff member (whoever may read the list) and managed by
// its owner or an administrator. A filter is a query string of the list: opening it is opening the list at
// that address, under the reader's own rights, so sharing one grants nothing.
import { and, asc, count, eq, or } from 'drizzle-orm';
import { FILTRES_MAX_PAR_UTILISATEUR } from '#shared/constants';
import type { FiltreDto, FiltresDto } from '#shared/dto/filtres';
import type { AppContext } from '#server/context';
import type { Orm } from '#server/db/client';
import { LOCK_SPACE, lockFor } from '#server/db/locks';
import { conflict, forbidden, notFound } from '#server/errors';
import { isAdmin } from '../auth/guards';
import type { SessionUser } from '../auth/session';
import { selectFiltres, type FiltreRow } from './queries';
import { normaliseRequete } from './requete';

export type FiltresContext = Pick<AppContext, 'db'>;

export const FILTRE_TEXTS = {
  notFound: 'Filtre introuvable.',
  notManager:
    "Seul le propriétaire d'un filtre partagé ou un administrateur peut le renommer ou le supprimer.",
  duplicate: (nom: string) => `Vous avez déjà un filtre nommé « ${nom} ».`,
  duplicateOwner: (nom: string) => `Son propriétaire a déjà un filtre nommé « ${nom} ».`,
  limit: `Vous avez atteint la limite de ${FILTRES_MAX_PAR_UTILISATEUR} filtres enregistrés : supprimez-en un pour en enregistrer un autre.`,
} as const;

const mayRead = (actor: SessionUser, row: FiltreRow) => row.partage || row.ownerId === actor.id;
const mayManage = (actor: SessionUser, row: FiltreRow) =>
  row.ownerId === actor.id || (row.partage && isAdmin(actor));

function dto(actor: SessionUser, row: FiltreRow): FiltreDto {
  return {
    id: row.id,
    nom: row.nom,
    requete: row.requete,
    partage: row.partage,
    proprietaire: row.proprietaire,
    mien: row.ownerId === actor.id,
    gerable: mayManage(actor, row),
  };
}

/** The reader's personal filters, then the shared ones (their own included), each by name. */
export async function listFiltres(ctx: FiltresContext, actor: SessionUser): Promise<FiltresDto> {
  const { db } = ctx;
  const f = db.t.filtresEnregistres;
  const rows = await selectFiltres(db, db.read)
    .where(or(eq(f.partage, true), eq(f.ownerId, actor.id)))
    .orderBy(asc(f.nom), asc(f.id));
  return {
    personnels: rows.filter((r) => !r.partage).map((r) => dto(actor, r)),
    partages: rows.filter((r) => r.partage).map((r) => dto(actor, r)),
  };
}

/**
 * The filter, checked for a change by `actor`: 404 when it does not exist or is someone else's personal
 * filter (its existence is not told), 403 when it is shared but neither theirs nor an administrator's.
 */
async function filtreForChange(ctx: FiltresContext, tx: Orm, actor: SessionUser, id: number) {
  const f = ctx.db.t.filtresEnregistres;
  const [row] = await selectFiltres(ctx.db, tx).where(eq(f.id, id)).limit(1);
  if (!row || !mayRead(actor, row)) throw notFound(FILTRE_TEXTS.notFound);
  if (!mayManage(actor, row)) throw forbidden(FILTRE_TEXTS.notManager);
  return row;
}

/** Whether a filter of this owner already bears this name (another one than `except`). */
async function nameTaken(ctx: FiltresContext, tx: Orm, ownerId: number, nom: string, except?: number) {
  const f = ctx.db.t.filtresEnregistres;
  const [row] = await tx
    .select({ id: f.id })
    .from(f)
    .where(and(eq(f.ownerId, ownerId), eq(f.nom, nom)))
    .limit(1);
  return row !== undefined && row.id !== except;
}

/** A unique violation (two saves of one name at once on PostgreSQL) is the same 409 as the check's. */
async function uniqueName<T>(ctx: FiltresContext, message: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (ctx.db.dialect.isUniqueViolation(error)) throw conflict(message);
    throw error;
  }
}

/**
 * « Enregistrer ce filtre »: the query string is checked and normalised, the name unique among the owner's
 * filters, and the owner keeps at most FILTRES_MAX_PAR_UTILISATEUR (counted under a lock per owner, so two
 * saves at once cannot both pass the last place).
 */
export async function createFiltre(
  ctx: FiltresContext,
  actor: SessionUser,
  input: { nom: string; requete: string; partage: boolean },
): Promise<FiltreDto> {
  const { db } = ctx;
  const f = db.t.filtresEnregistres;
  const requete = normaliseRequete(input.requete);
  return uniqueName(ctx, FILTRE_TEXTS.duplicate(input.nom), () =>
    db.transaction(async (tx) => {
      await lockFor(db, tx, LOCK_SPACE.savedFilters, actor.id);
      const [held] = await tx.select({ n: count() }).from(f).where(eq(f.ownerId, actor.id));
      if (Number(held?.n ?? 0) >= FILTRES_MAX_PAR_UTILISATEUR) throw conflict(FILTRE_TEXTS.limit);
      if (await nameTaken(ctx, tx, actor.id, input.nom)) throw conflict(FILTRE_TEXTS.duplicate(input.nom));
      const [created] = await tx
        .insert(f)
        .values({ nom: input.nom, requete, ownerId: actor.id, partage: input.partage })
        .returning({ id: f.id });
      const [row] = await selectFiltres(db, tx).where(eq(f.id, created!.id));
      return dto(actor, row!);
    }),
  );
}

/** Renames a filter: its owner, or an administrator for a shared one (the name stays unique for its owner). */
export async function renameFiltre(
  ctx: FiltresContext,
  actor: SessionUser,
  input: { id: number; nom: string },
): Promise<FiltreDto> {
  const { db } = ctx;
  const f = db.t.filtresEnregistres;
  return db.transaction(async (tx) => {
    const row = await filtreForChange(ctx, tx, actor, input.id);
    if (row.nom === input.nom) return dto(actor, row);
    const message =
      row.ownerId === actor.id ? FILTRE_TEXTS.duplicate(input.nom) : FILTRE_TEXTS.duplicateOwner(input.nom);
    if (await nameTaken(ctx, tx, row.ownerId, input.nom, row.id)) throw conflict(message);
    await uniqueName(ctx, message, () => tx.update(f).set({ nom: input.nom }).where(eq(f.id, row.id)));
    return dto(actor, { ...row, nom: input.nom });
  });
}

/** Deletes a filter: its owner, or an administrator for a shared one. */
export async function deleteFiltre(ctx: FiltresContext, actor: SessionUser, id: number): Promise<void> {
  const { db } = ctx;
  const f = db.t.filtresEnregistres;
  await db.transaction(async (tx) => {
    const row = await filtreForChange(ctx, tx, actor, id);
    await tx.delete(f).where(eq(f.id, row.id));
  });
}
