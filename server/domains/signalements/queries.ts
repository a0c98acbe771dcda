// Read queries of the report domain: the list filters of §7 and the loading of full DTOs for a set of
// reports in a fixed number of queries (no query per row).
import { aliasedTable, and, asc, countDistinct, desc, eq, exists, gte, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { addDays, businessDay, businessDayNumber, businessDayStart } from '../../../shared/calendar';
import type { SignalementDto } from '../../../shared/dto/signalements';
import type { SignalementListQuery } from '../../../shared/schemas/signalements';
import { cipherOf } from '../../crypto/registry';
import type { Database, Orm } from '../../db/client';
import { countSearchInIndex, planSearch, signalementSearchCondition } from '../../db/search';
import {
  canalDto,
  iri,
  niveauDto,
  orNull,
  partenaireRefDto,
  placeColumns,
  placeDto,
  projectDto,
  refDto,
  statutDto,
} from '../referentiels/dto';
import { isAdmin } from '../auth/guards';
import type { SessionUser } from '../auth/session';

export type ListFilters = Omit<SignalementListQuery, 'page' | 'itemsPerPage'>;

export interface FilterPlan {
  /**
   * 'page' reads one page in sort order: membership tests that stop early (EXISTS, LIKE scan).
   * 'set' collects every match (counts, export): index lookups that build the whole set.
   */
  mode: 'page' | 'set';
  searchStrategy?: 'index' | 'scan';
  /**
   * Who searches: a report also matches when the whole search is the exact name of one of its sources
   * that this user may know (blind index, docs/decisions/0017). Without it, sources are never matched.
   */
  viewer?: SessionUser;
}

/**
 * Reports with a source named exactly `search` (normalised), among those whose sources the viewer may
 * know: the SQL form of canSeeSources (access.ts): not anonymous, or created by the viewer, or any
 * report for an administrator. Names are encrypted: only the keyed HMAC of the whole name is compared.
 */
function sourceNameCondition(db: Database, search: string, viewer: SessionUser): SQL | undefined {
  const index = cipherOf(db).blindIndex(search);
  if (!index) return undefined;
  const { signalements: s, sources } = db.t;
  const named = inArray(s.id, db.read.select({ id: sources.signalementId }).from(sources).where(eq(sources.nomIndex, index)));
  if (isAdmin(viewer)) return named;
  return and(named, or(eq(s.isAnonyme, false), eq(s.createdById, viewer.id)));
}

/** Whether some source is named exactly `search` (then the search count needs the reports table). */
async function anySourceNamed(db: Database, search: string): Promise<boolean> {
  const index = cipherOf(db).blindIndex(search);
  if (!index) return false;
  const { sources } = db.t;
  const [row] = await db.read.select({ id: sources.id }).from(sources).where(eq(sources.nomIndex, index)).limit(1);
  return row !== undefined;
}

/**
 * The WHERE conditions of the §7 filters. `before` includes its whole day. Async because a search is
 * first planned against the token list (server/db/search.ts).
 */
export async function filterConditions(db: Database, f: ListFilters, plan: FilterPlan = { mode: 'set' }): Promise<SQL | undefined> {
  const { signalements: s, partenaires, utilisateurs, regions, districts, communes } = db.t;
  const { signalementSubjects: ss, subjects } = db.t;
  const conditions: Array<SQL | undefined> = [];
  const codes = (list?: string[]) => (list && list.length > 0 ? list : undefined);

  const partners = codes(f['partenaire.code']);
  if (partners) {
    conditions.push(
      inArray(s.partenaireId, db.read.select({ id: partenaires.id }).from(partenaires).where(inArray(partenaires.code, partners))),
    );
  }
  const creators = codes(f['createdBy.code']);
  if (creators) {
    conditions.push(
      inArray(s.createdById, db.read.select({ id: utilisateurs.id }).from(utilisateurs).where(inArray(utilisateurs.code, creators))),
    );
  }
  const subjectCodes = codes(f['subjects.code']);
  if (subjectCodes) {
    const subjectIds = db.read.select({ id: subjects.id }).from(subjects).where(inArray(subjects.code, subjectCodes));
    // Another filter narrows the set: each of its reports is probed through the links' index (a
    // subject's links alone can be 150,000 rows at a million reports, each a random read of the report).
    const narrowed = Boolean(
      partners || creators || f['region.code'] || f['district.code'] || f['commune.code'] || f.signalementAt?.after || f.signalementAt?.before || f.search,
    );
    conditions.push(
      plan.mode === 'page' || narrowed
        ? // Read in date order, each report is probed through the links' primary key, and the scan
          // stops after one page.
          exists(
            db.read
              .select({ one: sql`1` })
              .from(ss)
              .where(and(eq(ss.signalementId, s.id), inArray(ss.subjectId, subjectIds))),
          )
        : // The whole set comes straight from the (subject_id, signalement_id) index.
          inArray(s.id, db.read.select({ id: ss.signalementId }).from(ss).where(inArray(ss.subjectId, subjectIds))),
    );
  }
  const place = (column: typeof s.regionId, table: typeof regions | typeof districts | typeof communes, code?: string) => {
    if (code) conditions.push(eq(column, db.read.select({ id: table.id }).from(table).where(eq(table.code, code))));
  };
  place(s.regionId, regions, f['region.code']);
  place(s.districtId, districts, f['district.code']);
  place(s.communeId, communes, f['commune.code']);

  const after = f.signalementAt?.after;
  const before = f.signalementAt?.before;
  if (after) conditions.push(gte(s.signalementAt, after));
  // Inclusive by business day: up to the end of the day that contains `before` (a bare day is its first instant).
  if (before) conditions.push(lt(s.signalementAt, businessDayStart(addDays(businessDay(before), 1))));
  if (f.search) {
    const text = signalementSearchCondition(db, await planSearch(db, f.search), plan.searchStrategy);
    // One indexed look-up first: a search that names no source keeps the plain search's query plan.
    const named = plan.viewer && (await anySourceNamed(db, f.search)) ? sourceNameCondition(db, f.search, plan.viewer) : undefined;
    // A search of only wildcards plans no word (no condition): it must not become "sources named …".
    conditions.push(named && text ? or(text, named) : text);
  }
  const kept = conditions.filter((c): c is SQL => c !== undefined);
  return kept.length > 0 ? and(...kept) : undefined;
}

/** Whether `key` is the only filter set (sorting and paging do not narrow the set). */
function onlyFilter(f: ListFilters & { page?: number; itemsPerPage?: number }, key: keyof ListFilters): boolean {
  const { order: _order, page: _page, itemsPerPage: _size, ...rest } = f;
  return Object.entries(rest).every(
    ([name, value]) => name === key || value === undefined || (Array.isArray(value) && value.length === 0),
  );
}

const PLACE_FILTERS = ['region.code', 'district.code', 'commune.code'] as const;
const PLACE_DIMENSIONS = { 'region.code': 'region', 'district.code': 'district', 'commune.code': 'commune' } as const;

/**
 * The exact count read from signalement_day_counts, which the database's triggers keep in step with every
 * write (decision 0014), when the filters are at most one place and a range of whole business days: one
 * row per day instead of one per report (a million reports: under a millisecond instead of ~15 ms).
 * Null when the filters need the reports themselves.
 */
export async function countFromDayCounts(db: Database, f: ListFilters): Promise<number | null> {
  const { order: _order, page: _page, itemsPerPage: _size, signalementAt, ...rest } = f as ListFilters & { page?: number; itemsPerPage?: number };
  const places = PLACE_FILTERS.filter((key) => Boolean(f[key]));
  const unset = (value: unknown) => value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
  for (const [name, value] of Object.entries(rest)) {
    if (!unset(value) && !(PLACE_FILTERS as readonly string[]).includes(name)) return null;
  }
  if (places.length > 1) return null;
  const after = signalementAt?.after;
  const before = signalementAt?.before;
  // `after` is an instant: only one at the start of a business day bounds whole days.
  if (after && businessDayStart(businessDay(after)).getTime() !== after.getTime()) return null;
  const c = db.t.signalementDayCounts;
  const place = places[0];
  const table = place === 'region.code' ? db.t.regions : place === 'district.code' ? db.t.districts : db.t.communes;
  const conditions: SQL[] = place
    ? [eq(c.dimension, PLACE_DIMENSIONS[place]), eq(c.refId, db.read.select({ id: table.id }).from(table).where(eq(table.code, f[place]!)))]
    : [eq(c.dimension, 'total'), eq(c.refId, 0)];
  if (after) conditions.push(gte(c.day, businessDayNumber(after)));
  // `before` includes its whole day.
  if (before) conditions.push(lte(c.day, businessDayNumber(before)));
  const [row] = await db.read
    .select({ n: sql<number>`coalesce(sum(${c.n}), 0)`.mapWith(Number) })
    .from(c)
    .where(and(...conditions));
  return row?.n ?? 0;
}

/** How many reports match the filters. */
export async function countSignalements(db: Database, f: ListFilters, viewer?: SessionUser): Promise<number> {
  const counted = await countFromDayCounts(db, f);
  if (counted !== null) return counted;
  const { signalementSubjects: ss, subjects } = db.t;
  const subjectCodes = f['subjects.code'];
  if (subjectCodes && subjectCodes.length > 0 && onlyFilter(f, 'subjects.code')) {
    // The subject ids are resolved first: both counts below take them as values (with a sub-select
    // SQLite would walk the whole primary-key index of the links instead of the subject index).
    const ids = (await db.read.select({ id: subjects.id }).from(subjects).where(inArray(subjects.code, subjectCodes))).map((r) => r.id);
    if (ids.length === 0) return 0;
    if (db.engine === 'sqlite') {
      // Migration 0006: a report counts once, in the row of its set of subjects.
      const holds = ids.map((id) => sql`(',' || subjects || ',') like ${`%,${id},%`}`);
      const [row] = await db.rows<{ n: number }>(sql`select coalesce(sum(n), 0) as n from signalement_subject_sets where ${sql.join(holds, sql` or `)}`);
      return Number(row?.n ?? 0);
    }
    // One subject: the links' primary key (signalement, subject) already makes each report count once.
    const n = ids.length === 1 ? sql<number>`count(*)`.mapWith(Number) : countDistinct(ss.signalementId);
    const [row] = await db.read.select({ n }).from(ss).where(inArray(ss.subjectId, ids));
    return row?.n ?? 0;
  }
  if (f.search && onlyFilter(f, 'search') && !(viewer && (await anySourceNamed(db, f.search)))) {
    const n = await countSearchInIndex(db, await planSearch(db, f.search));
    if (n !== null) return n;
  }
  const s = db.t.signalements;
  const [row] = await db.read.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(s).where(await filterConditions(db, f, { mode: 'set', viewer }));
  return row?.n ?? 0;
}

/**
 * Above this many matches a search page is read by scanning in date order (matches are dense, so a
 * page is found after a few rows); below it, the matches are collected from the index and sorted.
 */
export const DENSE_SEARCH = 2000;

/** ORDER BY for the list: one field of §7, ties broken by id so pages never overlap. */
export function orderBy(db: Database, order: ListFilters['order']) {
  const { signalements: s, partenaires } = db.t;
  const [field, direction] = (Object.entries(order ?? {})[0] ?? ['signalementAt', 'desc']) as [string, 'asc' | 'desc'];
  const dir = direction === 'asc' ? asc : desc;
  switch (field) {
    case 'code':
      return [dir(s.code)];
    case 'partenaire.designation':
      return [
        dir(db.read.select({ d: partenaires.designation }).from(partenaires).where(eq(partenaires.id, s.partenaireId))),
        dir(s.signalementAt),
        dir(s.id),
      ];
    default:
      return [dir(s.signalementAt), dir(s.id)];
  }
}

/** Full DTOs for the given report ids, in the given order. */
export async function loadSignalements(
  db: Database,
  ids: number[],
  canEdit: (createdByEmail: string) => boolean,
  tx: Orm = db.read,
): Promise<SignalementDto[]> {
  if (ids.length === 0) return [];
  const t = db.t;
  const s = t.signalements;
  const owner = aliasedTable(t.partenaires, 'project_owner');
  const rows = await tx
    .select({
      s,
      createdBy: { code: t.utilisateurs.code, email: t.utilisateurs.email, nomPrenom: t.utilisateurs.nomPrenom },
      partenaire: { code: t.partenaires.code, designation: t.partenaires.designation, initial: t.partenaires.initial, color: t.partenaires.color },
      canal: { code: t.canals.code, designation: t.canals.designation, icon: t.canals.icon },
      region: placeColumns(t.regions),
      district: placeColumns(t.districts),
      commune: placeColumns(t.communes),
      niveau: { code: t.niveaux.code, designation: t.niveaux.designation, color: t.niveaux.color, rank: t.niveaux.rank },
      statut: { code: t.statuts.code, designation: t.statuts.designation, kind: t.statuts.kind },
      resultat: { code: t.resultats.code, designation: t.resultats.designation },
    })
    .from(s)
    .innerJoin(t.utilisateurs, eq(t.utilisateurs.id, s.createdById))
    .innerJoin(t.partenaires, eq(t.partenaires.id, s.partenaireId))
    .leftJoin(t.canals, eq(t.canals.id, s.canalPrincipalId))
    .leftJoin(t.regions, eq(t.regions.id, s.regionId))
    .leftJoin(t.districts, eq(t.districts.id, s.districtId))
    .leftJoin(t.communes, eq(t.communes.id, s.communeId))
    .leftJoin(t.niveaux, eq(t.niveaux.id, s.niveauId))
    .leftJoin(t.statuts, eq(t.statuts.id, s.statutId))
    .leftJoin(t.resultats, eq(t.resultats.id, s.resultatId))
    .where(inArray(s.id, ids));

  const subjectRows = await tx
    .select({ id: t.signalementSubjects.signalementId, code: t.subjects.code, designation: t.subjects.designation })
    .from(t.signalementSubjects)
    .innerJoin(t.subjects, eq(t.subjects.id, t.signalementSubjects.subjectId))
    .where(inArray(t.signalementSubjects.signalementId, ids))
    .orderBy(asc(t.subjects.position), asc(t.subjects.designation));
  const projectRows = await tx
    .select({
      id: t.signalementProjects.signalementId,
      project: { code: t.projects.code, designation: t.projects.designation, sigle: t.projects.sigle, description: t.projects.description },
      owner: { code: owner.code, designation: owner.designation, initial: owner.initial, color: owner.color },
    })
    .from(t.signalementProjects)
    .innerJoin(t.projects, eq(t.projects.id, t.signalementProjects.projectId))
    .innerJoin(owner, eq(owner.id, t.projects.ownerId))
    .where(inArray(t.signalementProjects.signalementId, ids))
    .orderBy(asc(t.projects.sigle));

  const group = <R extends { id: number }, V>(list: R[], map: (r: R) => V) => {
    const out = new Map<number, V[]>();
    for (const r of list) out.set(r.id, [...(out.get(r.id) ?? []), map(r)]);
    return out;
  };
  const subjectsById = group(subjectRows, (r) => refDto('subjects', r));
  const projectsById = group(projectRows, (r) => projectDto(r.project, r.owner));
  const byId = new Map(rows.map((r) => [r.s.id, r]));

  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    const canal = orNull(r.canal);
    const region = orNull(r.region);
    const district = orNull(r.district);
    const commune = orNull(r.commune);
    const niveau = orNull(r.niveau);
    const statut = orNull(r.statut);
    const resultat = orNull(r.resultat);
    const dto: SignalementDto = {
      '@id': iri('signalements', r.s.code),
      '@type': 'Signalement',
      code: r.s.code,
      signalementAt: r.s.signalementAt.toISOString(),
      createdAt: r.s.createdAt.toISOString(),
      closeAt: r.s.closeAt?.toISOString() ?? null,
      lastActionAt: r.s.lastActionAt?.toISOString() ?? null,
      createdBy: { '@id': iri('utilisateurs', r.createdBy.code), ...r.createdBy },
      partenaire: partenaireRefDto(r.partenaire),
      canalPrincipal: canal ? canalDto(canal) : null,
      autreCanalPrincipal: r.s.autreCanalPrincipal,
      autreObject: r.s.autreObject,
      subjects: subjectsById.get(id) ?? [],
      region: region ? placeDto('regions', region) : null,
      district: district ? placeDto('districts', district) : null,
      commune: commune ? placeDto('communes', commune) : null,
      fokontany: r.s.fokontany,
      projects: projectsById.get(id) ?? [],
      isTreated: r.s.isTreated,
      isInternalResponsability: r.s.isInternalResponsability,
      isConfict: r.s.isConfict,
      isRecurrent: r.s.isRecurrent,
      isAnonyme: r.s.isAnonyme,
      niveau: niveau ? niveauDto(niveau) : null,
      statut: statut ? statutDto(statut) : null,
      resultat: resultat ? refDto('resultats', resultat) : null,
      description: r.s.description,
      actionProvisoires: r.s.actionProvisoires,
      preuves: r.s.preuves,
      canEdit: canEdit(r.createdBy.email),
    };
    return [dto];
  });
}
