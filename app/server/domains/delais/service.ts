// Handling deadlines per niveau (docs/decisions/0032-deadlines.md): every staff member reads them, only
// administrators change them; a change rewrites the due day of every open report of the niveau, logs the
// change in the access log, all in one transaction.
import { desc, eq, inArray } from 'drizzle-orm';
import type { DelaiTraitementDto } from '#shared/dto/delais';
import type { DelaisUpdate } from '#shared/schemas/delais';
import type { Clock } from '#server/context';
import type { Database, ReadOnlyDatabase } from '#server/db/client';
import { refreshDueDays } from '#server/db/due-days';
import { invalid, notFound } from '#server/errors';
import { requireAdmin } from '../auth/guards';
import type { SessionUser } from '../auth/session';
import { recordSettingChange } from '../journal/record';
import { iri, niveauDto } from '../referentiels/dto';

function selectDelais(db: ReadOnlyDatabase) {
  const { delaisTraitement: d, niveaux: n } = db.t;
  return db.read
    .select({
      niveau: { code: n.code, designation: n.designation, color: n.color, rank: n.rank },
      jours: d.jours,
      updatedAt: d.updatedAt,
    })
    .from(d)
    .innerJoin(n, eq(n.id, d.niveauId))
    .orderBy(desc(n.rank));
}

type DelaiRow = Awaited<ReturnType<typeof selectDelais>>[number];

const delaiDto = (r: DelaiRow): DelaiTraitementDto => ({
  '@id': iri('delais_traitement', r.niveau.code),
  '@type': 'DelaiTraitement',
  niveau: niveauDto(r.niveau),
  jours: r.jours === null ? null : Number(r.jours),
  updatedAt: r.updatedAt?.toISOString() ?? null,
});

/** Every niveau's deadline, the most serious first. */
export async function listDelais(db: ReadOnlyDatabase): Promise<DelaiTraitementDto[]> {
  return (await selectDelais(db)).map(delaiDto);
}

export async function getDelai(db: ReadOnlyDatabase, niveau: string): Promise<DelaiTraitementDto> {
  const found = (await listDelais(db)).find((d) => d.niveau.code === niveau);
  if (!found) throw notFound(`Niveau introuvable : ${niveau}.`);
  return found;
}

/**
 * Sets the deadlines of the niveaux named (administrators only). In one transaction: the settings, the due
 * day of every open report of a niveau whose deadline changed (refreshDueDays, set-based), and one access
 * log entry per change; a failure anywhere leaves all of them as they were.
 */
export async function updateDelais(
  { db, clock }: { db: Database; clock: Clock },
  actor: SessionUser,
  input: DelaisUpdate,
): Promise<DelaiTraitementDto[]> {
  requireAdmin(actor);
  const { delaisTraitement: d, niveaux: n } = db.t;
  const wanted = new Map<string, number | null>();
  for (const { niveau, jours } of input.delais) wanted.set(niveau, jours);
  await db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: n.id, code: n.code, jours: d.jours })
      .from(n)
      .innerJoin(d, eq(d.niveauId, n.id))
      .where(inArray(n.code, [...wanted.keys()]));
    const byCode = new Map(rows.map((r) => [r.code, r]));
    const order = [...wanted.keys()];
    const unknown = [...wanted.keys()].find((code) => !byCode.has(code));
    if (unknown !== undefined) throw invalid(`Niveau introuvable : ${unknown}.`, { propertyPath: 'niveau' });
    // In the order given, so the access log reads as the administrator wrote it.
    rows.sort((x, y) => order.indexOf(x.code) - order.indexOf(y.code));
    const changed = rows.filter((r) => (r.jours === null ? null : Number(r.jours)) !== wanted.get(r.code));
    const now = clock.now();
    for (const r of changed) {
      const jours = wanted.get(r.code) ?? null;
      await tx.update(d).set({ jours, updatedAt: now, updatedById: actor.id }).where(eq(d.niveauId, r.id));
      await recordSettingChange(
        { db, clock },
        actor,
        {
          parametre: 'delai_traitement',
          niveau: r.code,
          avant: r.jours === null ? null : Number(r.jours),
          apres: jours,
        },
        tx,
      );
    }
    await refreshDueDays(db, { niveauIds: changed.map((r) => r.id) });
  });
  return listDelais(db);
}
