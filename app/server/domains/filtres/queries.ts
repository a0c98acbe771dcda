// The saved filters' one selection (filter, owner), read by the list and by every change.
import { eq } from 'drizzle-orm';
import type { Orm, ReadOnlyDatabase } from '#server/db/client';

export function selectFiltres(db: ReadOnlyDatabase, orm: Orm) {
  const { filtresEnregistres: f, utilisateurs: u } = db.t;
  return orm
    .select({
      id: f.id,
      nom: f.nom,
      requete: f.requete,
      partage: f.partage,
      ownerId: f.ownerId,
      proprietaire: { code: u.code, nomPrenom: u.nomPrenom },
    })
    .from(f)
    .innerJoin(u, eq(u.id, f.ownerId));
}

export type FiltreRow = Awaited<ReturnType<ReturnType<typeof selectFiltres>['execute']>>[number];
