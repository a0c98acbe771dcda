// Business rules of reports: listing, reading, creation, merge-patch, location (spec §4–§6).
import { eq } from 'drizzle-orm';
import type { LocalisationDto, SignalementDto } from '#shared/dto/signalements';
import {
  othersIssues,
  type signalementListSchema,
  type signalementPatchSchema,
  type localisationSchema,
} from '#shared/schemas/signalements';
import type { z } from 'zod';
import type { AppContext, ListContext, Stamping } from '#server/context';
import type { Database, Orm, ReadOnlyDatabase } from '#server/db/client';
import { refreshDueDays } from '#server/db/due-days';
import { invalid } from '#server/errors';
import type { SessionUser } from '../auth/session';
import { orNull, placeColumns, placeDto } from '../referentiels/dto';
import { findEditable, findSignalement, idOf, idsOf } from './access';
import { diff, recordChange } from './history';
import { listPage } from './queries';
import { loadListPage } from './list-row';
import { loadSignalements } from './loader';
import { refreshAfterWrite } from './search-refresh';
import { alreadyApplied, bumpVersion, currentVersion, editConflict } from './edit-version';
import { readReportParts, snapshot, snapshotOf } from './snapshot';
import { applyStatutKind } from './statut-kind';
import { enqueueWebhookEvents, webhookStates } from '../webhooks/events';

type ListQuery = z.output<typeof signalementListSchema>;
type PatchInput = z.output<typeof signalementPatchSchema>;
type LocalisationInput = z.output<typeof localisationSchema>;

/** A page of the list: its rows as the list shows them (list-row.ts; the whole report is getSignalement). */
export async function listSignalements(ctx: ListContext, actor: SessionUser, q: ListQuery) {
  const { items, total } = await listPage(ctx, actor, q, (page) => loadListPage(ctx.db, page));
  return { items, total: total.n, totalExact: total.exact };
}

export { createSignalement } from './create';

export async function getSignalement(
  db: ReadOnlyDatabase,
  actor: SessionUser,
  code: string,
): Promise<SignalementDto> {
  const row = await findSignalement(db, code);
  const [dto] = await loadSignalements(db, [row.id], actor);
  return dto!;
}

/**
 * The report a create answers with, read afresh under the actor's rights, by its id when the answer holds
 * it and it is still that report (a create's own answer: one round trip less), else by its code (a stored
 * answer of a report deleted since is a 404).
 */
export async function getCreated(
  db: ReadOnlyDatabase,
  actor: SessionUser,
  created: { code: string; id?: number },
): Promise<SignalementDto> {
  const [dto] = created.id === undefined ? [] : await loadSignalements(db, [created.id], actor);
  return dto?.code === created.code ? dto : getSignalement(db, actor, created.code);
}

function assertOthers(value: Parameters<typeof othersIssues>[0]) {
  const [issue] = othersIssues(value);
  if (issue) throw invalid(issue.message, { propertyPath: issue.path });
}

/**
 * Applies a merge-patch: absent fields are unchanged, null clears. Records the differences. With
 * `expectedVersion`, refused (409, nothing written) when the report is no longer at that version
 * (docs/decisions/0047-edit-conflicts.md); a patch with at least one field moves the version by one.
 */
export async function patchSignalement(
  ctx: Pick<AppContext, 'db' | 'calendar' | 'clock'>,
  actor: SessionUser,
  code: string,
  patch: PatchInput,
  expectedVersion?: number,
): Promise<SignalementDto> {
  const { db, calendar } = ctx;
  const t = db.t;
  const s = t.signalements;
  const id = await db.transaction(async (tx) => {
    const report = await findEditable(db, actor, code, tx);
    const sent = Object.keys(patch).some((key) => patch[key as keyof PatchInput] !== undefined);
    // First, so that the row is claimed before anything is read for the write.
    if (sent || expectedVersion !== undefined) {
      const moved = sent
        ? await bumpVersion(db, tx, report.id, expectedVersion)
        : await currentVersion(db, tx, report.id);
      if (moved === null || (!sent && moved !== expectedVersion)) {
        const values = patchValues(await snapshot(db, tx, report.id));
        if (alreadyApplied(sentValues(patch, calendar), values)) return report.id;
        throw editConflict(await currentVersion(db, tx, report.id), sentValues(patch, calendar), values);
      }
    }
    const beforeParts = (await readReportParts(db, tx, report.id))!;
    const before = snapshotOf(beforeParts);
    const current = before.codes;
    // Only a patch of a watched field pays the read (docs/decisions/0039-signed-webhooks.md).
    const watched = patch.statut !== undefined || patch.resultat !== undefined || patch.niveau !== undefined;
    const watchedBefore = watched ? await webhookStates(db, tx, [report.id]) : new Map<number, never>();
    const merged = {
      subjects: patch.subjects ?? current.subjects,
      autreObject: patch.autreObject !== undefined ? patch.autreObject : current.autreObject,
      canalPrincipal: patch.canalPrincipal !== undefined ? patch.canalPrincipal : current.canalPrincipal,
      autreCanalPrincipal:
        patch.autreCanalPrincipal !== undefined ? patch.autreCanalPrincipal : current.autreCanalPrincipal,
    };
    assertOthers(merged);

    const set: Partial<typeof s.$inferInsert> = {};
    for (const key of [
      'description',
      'isConfict',
      'isRecurrent',
      'isInternalResponsability',
      'isAnonyme',
    ] as const) {
      if (patch[key] !== undefined) Object.assign(set, { [key]: patch[key] });
    }
    set.autreObject = merged.subjects.includes('OTHERS') ? merged.autreObject : null;
    set.autreCanalPrincipal = merged.canalPrincipal === 'OTHERS' ? merged.autreCanalPrincipal : null;
    if (patch.actionProvisoires !== undefined) set.actionProvisoires = patch.actionProvisoires;
    if (patch.preuves !== undefined) set.preuves = patch.preuves;
    const ref = async (value: string | null | undefined, table: Parameters<typeof idOf>[1], label: string) =>
      value === undefined ? undefined : value === null ? null : await idOf(tx, table, value, label);
    const niveauId = await ref(patch.niveau, t.niveaux, 'Niveau');
    const resultatId = await ref(patch.resultat, t.resultats, 'Résultat');
    const canalPrincipalId = await ref(patch.canalPrincipal, t.canals, 'Canal');
    if (niveauId !== undefined) set.niveauId = niveauId;
    if (resultatId !== undefined) set.resultatId = resultatId;
    if (canalPrincipalId !== undefined) set.canalPrincipalId = canalPrincipalId;
    if (patch.statut !== undefined) {
      const statut = patch.statut === null ? null : await statutOf(db, tx, patch.statut);
      set.statutId = statut?.id ?? null;
      Object.assign(
        set,
        applyStatutKind(
          statut?.kind ?? null,
          { isTreated: current.isTreated, closeAt: current.closeAt },
          ctx.clock.now(),
        ),
      );
    }
    if (Object.keys(set).length > 0) await tx.update(s).set(set).where(eq(s.id, report.id));
    // The due day follows the niveau and the statut's kind (docs/decisions/0032).
    if (niveauId !== undefined || patch.statut !== undefined) await refreshDueDays(db, { ids: [report.id] });
    // The partner's endpoints hear of a new statut, résultat or niveau (docs/decisions/0039-signed-webhooks.md).
    if (watchedBefore.size > 0)
      await enqueueWebhookEvents(
        db,
        tx,
        watchedBefore,
        await webhookStates(db, tx, [report.id]),
        ctx.clock.now(),
      );

    if (patch.subjects !== undefined) {
      const subjectIds = await idsOf(tx, t.subjects, patch.subjects, 'Objet');
      await tx.delete(t.signalementSubjects).where(eq(t.signalementSubjects.signalementId, report.id));
      await tx
        .insert(t.signalementSubjects)
        .values(subjectIds.map((subjectId) => ({ signalementId: report.id, subjectId })));
    }
    if (patch.projects !== undefined) await replaceProjects(db, tx, report, patch.projects);

    const changes = diff(before.fields, snapshotOf(await refreshAfterWrite(db, tx, beforeParts)).fields);
    if (Object.keys(changes).length > 0 || patch.lastActionAt !== undefined) {
      await recordChange(ctx, tx, report.id, actor, 'modification', changes, {
        lastActionAt: patch.lastActionAt && calendar.instant(patch.lastActionAt),
      });
    }
    return report.id;
  });
  const [dto] = await loadSignalements(db, [id], actor);
  return dto!;
}

/** The report's values in the patch's vocabulary (codes for references), for an edit conflict's answer. */
function patchValues({
  fields,
  codes,
}: Awaited<ReturnType<typeof snapshot>>): Record<keyof PatchInput, unknown> {
  return {
    description: fields.description,
    isConfict: fields.isConfict,
    isRecurrent: fields.isRecurrent,
    isInternalResponsability: fields.isInternalResponsability,
    isAnonyme: fields.isAnonyme,
    niveau: codes.niveau,
    statut: codes.statut,
    resultat: codes.resultat,
    canalPrincipal: codes.canalPrincipal,
    autreCanalPrincipal: codes.autreCanalPrincipal,
    subjects: codes.subjects,
    autreObject: codes.autreObject,
    projects: codes.projects,
    actionProvisoires: fields.actionProvisoires,
    preuves: fields.preuves,
    lastActionAt: codes.lastActionAt?.toISOString() ?? null,
  };
}

/** The patch as sent, its date as the instant it stands for (the server's value is one too). */
const sentValues = (patch: PatchInput, calendar: AppContext['calendar']): Record<string, unknown> =>
  patch.lastActionAt ? { ...patch, lastActionAt: calendar.instant(patch.lastActionAt).toISOString() } : patch;

async function statutOf(db: Database, tx: Orm, code: string) {
  const { statuts } = db.t;
  const [row] = await tx
    .select({ id: statuts.id, kind: statuts.kind })
    .from(statuts)
    .where(eq(statuts.code, code));
  if (!row) throw invalid(`Statut introuvable : ${code}.`);
  return row;
}

async function replaceProjects(
  db: Database,
  tx: Orm,
  report: { id: number; partenaireId: number },
  codes: string[],
) {
  const { projects, signalementProjects } = db.t;
  const ids = await idsOf(tx, projects, codes, 'Projet');
  for (const projectId of ids) {
    const [p] = await tx
      .select({ ownerId: projects.ownerId, code: projects.code })
      .from(projects)
      .where(eq(projects.id, projectId));
    if (p!.ownerId !== report.partenaireId) {
      throw invalid(`Le projet ${p!.code} n'appartient pas au partenaire du signalement.`);
    }
  }
  await tx.delete(signalementProjects).where(eq(signalementProjects.signalementId, report.id));
  if (ids.length > 0) {
    await tx
      .insert(signalementProjects)
      .values(ids.map((projectId) => ({ signalementId: report.id, projectId })));
  }
}

export async function getLocalisation(db: Database, code: string): Promise<LocalisationDto> {
  const t = db.t;
  const report = await findSignalement(db, code);
  const [row] = await db.read
    .select({
      fokontany: t.signalements.fokontany,
      region: placeColumns(t.regions),
      district: placeColumns(t.districts),
      commune: placeColumns(t.communes),
    })
    .from(t.signalements)
    .leftJoin(t.regions, eq(t.regions.id, t.signalements.regionId))
    .leftJoin(t.districts, eq(t.districts.id, t.signalements.districtId))
    .leftJoin(t.communes, eq(t.communes.id, t.signalements.communeId))
    .where(eq(t.signalements.id, report.id));
  const region = orNull(row!.region);
  const district = orNull(row!.district);
  const commune = orNull(row!.commune);
  return {
    region: region ? placeDto('regions', region) : null,
    district: district ? placeDto('districts', district) : null,
    commune: commune ? placeDto('communes', commune) : null,
    fokontany: row!.fokontany,
  };
}

/**
 * Replaces the four location fields (absent means none). A district must lie in the region and a
 * commune in the district, as the cascading pickers of §4 guarantee on the client. Every write moves the
 * report's version by exactly one, from `expectedVersion` when given (409 when stale, nothing written):
 * docs/decisions/0047-edit-conflicts.md.
 */
export async function updateLocalisation(
  ctx: Stamping,
  actor: SessionUser,
  code: string,
  input: LocalisationInput,
  expectedVersion?: number,
): Promise<LocalisationDto> {
  const { db } = ctx;
  const t = db.t;
  await db.transaction(async (tx) => {
    const report = await findEditable(db, actor, code, tx);
    if ((await bumpVersion(db, tx, report.id, expectedVersion)) === null) {
      const now = (await snapshot(db, tx, report.id)).codes.places;
      const sent = {
        region: input.region ?? null,
        district: input.district ?? null,
        commune: input.commune ?? null,
        fokontany: input.fokontany ?? null,
      };
      // A resend of a location already in place is done, not a conflict (0047).
      if (alreadyApplied(sent, now)) return;
      throw editConflict(await currentVersion(db, tx, report.id), sent, now);
    }
    const beforeParts = (await readReportParts(db, tx, report.id))!;
    const region = input.region ? await placeRow(tx, t.regions, input.region, 'Région') : null;
    const district = input.district ? await placeRow(tx, t.districts, input.district, 'District') : null;
    const commune = input.commune ? await placeRow(tx, t.communes, input.commune, 'Commune') : null;
    if (district && (!region || district.parentId !== region.id)) {
      throw invalid('Le district ne fait pas partie de la région choisie.');
    }
    if (commune && (!district || commune.parentId !== district.id)) {
      throw invalid('La commune ne fait pas partie du district choisi.');
    }
    await tx
      .update(t.signalements)
      .set({
        regionId: region?.id ?? null,
        districtId: district?.id ?? null,
        communeId: commune?.id ?? null,
        fokontany: input.fokontany ?? null,
      })
      .where(eq(t.signalements.id, report.id));
    const after = await refreshAfterWrite(db, tx, beforeParts);
    const changes = diff(snapshotOf(beforeParts).fields, snapshotOf(after).fields);
    if (Object.keys(changes).length > 0)
      await recordChange(ctx, tx, report.id, actor, 'localisation', changes);
  });
  return getLocalisation(db, code);
}

async function placeRow(
  tx: Orm,
  table: Database['t']['regions'] | Database['t']['districts'] | Database['t']['communes'],
  code: string,
  label: string,
): Promise<{ id: number; parentId: number | null }> {
  const parent = 'districtId' in table ? table.districtId : 'regionId' in table ? table.regionId : null;
  const [row] = await tx
    .select({ id: table.id, parentId: parent ?? table.id })
    .from(table)
    .where(eq(table.code, code))
    .limit(1);
  if (!row) throw invalid(`${label} introuvable : ${code}.`);
  return { id: row.id, parentId: parent ? row.parentId : null };
}
