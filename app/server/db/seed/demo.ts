import { hash } from 'argon2';
import { eq, inArray } from 'drizzle-orm';
import { cipherOf, type WithCipher } from '#server/context';
import type { DataCipher } from '#server/crypto/cipher';
import { sealSource } from '#server/crypto/sources';
import { generateCode, generateSignalementCode } from '#server/domains/signalements/code';
import { normalizeSearch } from '#server/domains/signalements/search-text';
import { type Database, type Orm } from '../client';
import { refreshDueDays } from '../due-days';
import { recordSearchTerms } from '../search';
import { bulkInsert } from './bulk';
import { DEMO_PARTNERS, DEMO_PROJECTS, FIRST_NAMES, LAST_NAMES } from './demo-data';
import { Random, ReportFactory, type ReportContext, type ReportDraft } from './demo-reports';
import { seed } from './index';
import { INTERNAL_PARTNER, type RoleCode } from './reference';

/** Password of every demo user, printed by `npm run seed:demo`. */
export const DEMO_PASSWORD = 'Signalements-Demo-2026';
export const DEMO_EMAIL_DOMAIN = 'signalements.example';

export interface DemoOptions {
  reports: number;
  /** Seed of the content generator: the same seed makes the same choices (codes stay random). */
  seed?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface DemoResult {
  reports: number;
  partenaires: number;
  projects: number;
  utilisateurs: number;
  auteurs: number;
  sources: number;
  victimes: number;
}

const DEMO_ROLE_PLAN: Array<[RoleCode, number]> = [
  ['ROLE_ADMIN', 3],
  ['ROLE_USER', 4],
  ['ROLE_GESTIONNAIRE', 5],
  ['ROLE_ENQUETEUR', 6],
  ['ROLE_ANALYSTE', 4],
  ['ROLE_ASSISTANT', 3],
];

// Reports per transaction: bounds memory and lets readers see progress on large runs.
const CHUNK = 5_000;

// Codes are not checked beforehand: insertCoded catches a repeat, in the database or in the batch,
// and redraws it, which keeps a run of millions of reports from holding every code in memory.
const newCode = (prefix: string) => (prefix === 'SIG' ? generateSignalementCode() : generateCode(prefix));

type Returned = Array<{ id: number; code: string }>;

/**
 * Inserts rows keyed by a random code with ON CONFLICT (code) DO NOTHING; the rows that did not come
 * back collided with an existing code, get a new one and are inserted again. Returns code → id.
 */
async function insertCoded<R extends { code: string }>(
  rows: R[],
  prefix: string,
  insert: (rows: R[]) => Promise<Returned>,
  recode?: (row: R, previous: string) => void,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  let pending = rows;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt === 10) throw new Error(`Impossible de générer des codes ${prefix} uniques`);
    // A code repeated within the batch would come back once and pass for both rows: send it once.
    const seen = new Set(ids.keys());
    const batch: R[] = [];
    const missing: R[] = [];
    for (const row of pending) {
      if (seen.has(row.code)) missing.push(row);
      else batch.push(row);
      seen.add(row.code);
    }
    if (batch.length > 0) for (const r of await insert(batch)) ids.set(r.code, r.id);
    missing.push(...batch.filter((row) => !ids.has(row.code)));
    for (const row of missing) {
      const previous = row.code;
      row.code = newCode(prefix);
      recode?.(row, previous);
    }
    pending = missing;
  }
  return ids;
}

const asReturned = (rows: Array<Record<string, unknown>>): Returned =>
  rows.map((r) => ({ id: Number(r.id), code: String(r.code) }));

function slug(text: string): string {
  return normalizeSearch(text)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export function demoUsers(): Array<{ email: string; nomPrenom: string; role: RoleCode }> {
  const plan = DEMO_ROLE_PLAN.flatMap(([role, n]) => Array.from({ length: n }, () => role));
  return plan.map((role, i) => {
    const first = FIRST_NAMES[i % FIRST_NAMES.length]!;
    // 7 is prime to the list length, so the 25 (first, last) pairs, and the e-mails, are distinct.
    const last = LAST_NAMES[(i * 7) % LAST_NAMES.length]!;
    return {
      email: `${slug(first)}.${slug(last)}@${DEMO_EMAIL_DOMAIN}`,
      nomPrenom: `${last.toUpperCase()} ${first}`,
      role,
    };
  });
}

/** Demo partners, projects and users, created once; later runs reuse them. */
async function ensureActors(db: Database, tx: Orm, now: number) {
  const { t } = db;
  const created = { partenaires: 0, projects: 0, utilisateurs: 0 };
  const partnerCodes = [INTERNAL_PARTNER.code, ...DEMO_PARTNERS.map((p) => p.code)];
  created.partenaires = (
    await tx
      .insert(t.partenaires)
      .values(DEMO_PARTNERS.map((p) => ({ ...p, createdAt: new Date(now - 800 * 86_400_000) })))
      .onConflictDoNothing({ target: t.partenaires.code })
      .returning({ id: t.partenaires.id })
  ).length;
  const partners = await tx
    .select({ id: t.partenaires.id, code: t.partenaires.code, designation: t.partenaires.designation })
    .from(t.partenaires)
    .where(inArray(t.partenaires.code, partnerCodes));
  const partnerIds = new Map(partners.map((p) => [p.code, p.id]));

  const projectsOf = async () =>
    tx
      .select({
        id: t.projects.id,
        ownerId: t.projects.ownerId,
        sigle: t.projects.sigle,
        designation: t.projects.designation,
      })
      .from(t.projects)
      .where(inArray(t.projects.ownerId, [...partnerIds.values()]));
  const existing = new Set((await projectsOf()).map((p) => `${p.ownerId}:${p.sigle}`));
  const newProjects = DEMO_PROJECTS.filter(
    (p) => partnerIds.has(p.owner) && !existing.has(`${partnerIds.get(p.owner)}:${p.sigle}`),
  ).map((p) => ({
    code: newCode('PRJ'),
    sigle: p.sigle,
    designation: p.designation,
    description: p.description,
    ownerId: partnerIds.get(p.owner)!,
  }));
  created.projects = (
    await insertCoded(newProjects, 'PRJ', (batch) =>
      tx
        .insert(t.projects)
        .values(batch)
        .onConflictDoNothing({ target: t.projects.code })
        .returning({ id: t.projects.id, code: t.projects.code }),
    )
  ).size;
  const projects = await projectsOf();

  const roles = new Map((await tx.select().from(t.utilisateurRoles)).map((r) => [r.code, r.id]));
  const wanted = demoUsers();
  const emails = wanted.map((u) => u.email);
  const present = new Set(
    (
      await tx
        .select({ email: t.utilisateurs.email })
        .from(t.utilisateurs)
        .where(inArray(t.utilisateurs.email, emails))
    ).map((u) => u.email),
  );
  const missing = wanted.filter((u) => !present.has(u.email));
  if (missing.length > 0) {
    // argon2 is deliberately slow: one hash, shared by every demo account.
    const passwordHash = await hash(DEMO_PASSWORD);
    const rows = missing.map((u) => {
      const i = wanted.indexOf(u);
      return {
        code: newCode('USR'),
        email: u.email,
        nomPrenom: u.nomPrenom,
        passwordHash,
        roleId: roles.get(u.role)!,
        isEnabled: i !== wanted.length - 1,
        lastConnectionAt: i % 5 === 4 ? null : new Date(now - ((i * 13) % 30) * 86_400_000 - i * 3_600_000),
      };
    });
    created.utilisateurs = (
      await insertCoded(rows, 'USR', (batch) =>
        tx
          .insert(t.utilisateurs)
          .values(batch)
          .onConflictDoNothing({ target: t.utilisateurs.code })
          .returning({ id: t.utilisateurs.id, code: t.utilisateurs.code }),
      )
    ).size;
  }
  const users = await tx
    .select({ id: t.utilisateurs.id, roleCode: t.utilisateurRoles.code })
    .from(t.utilisateurs)
    .innerJoin(t.utilisateurRoles, eq(t.utilisateurs.roleId, t.utilisateurRoles.id))
    .where(inArray(t.utilisateurs.email, emails));

  return {
    created,
    users,
    partners: partners.map((p) => ({ ...p, projects: projects.filter((pr) => pr.ownerId === p.id) })),
  };
}

async function loadReferences(db: Database) {
  const { t, read } = db;
  const [subjects, canals, niveaux, statuts, resultats, regions, districts, communes] = await Promise.all([
    read
      .select({ id: t.subjects.id, code: t.subjects.code, designation: t.subjects.designation })
      .from(t.subjects),
    read.select({ id: t.canals.id, code: t.canals.code, designation: t.canals.designation }).from(t.canals),
    read
      .select({ id: t.niveaux.id, code: t.niveaux.code, designation: t.niveaux.designation })
      .from(t.niveaux),
    read
      .select({
        id: t.statuts.id,
        code: t.statuts.code,
        designation: t.statuts.designation,
        kind: t.statuts.kind,
      })
      .from(t.statuts),
    read
      .select({ id: t.resultats.id, code: t.resultats.code, designation: t.resultats.designation })
      .from(t.resultats),
    read
      .select({ id: t.regions.id, designation: t.regions.designation })
      .from(t.regions)
      .orderBy(t.regions.code),
    read
      .select({ id: t.districts.id, regionId: t.districts.regionId, designation: t.districts.designation })
      .from(t.districts),
    read
      .select({ id: t.communes.id, districtId: t.communes.districtId, designation: t.communes.designation })
      .from(t.communes)
      .orderBy(t.communes.code),
  ]);
  const districtById = new Map(districts.map((d) => [d.id, d]));
  const communesByRegion = new Map<number, ReportContext['regions'][number]['communes']>();
  for (const c of communes) {
    const d = districtById.get(c.districtId)!;
    const list = communesByRegion.get(d.regionId) ?? [];
    list.push({ id: c.id, designation: c.designation, districtId: d.id, district: d.designation });
    communesByRegion.set(d.regionId, list);
  }
  return {
    subjects,
    canals,
    niveaux,
    statuts,
    resultats,
    regions: regions
      .map((r) => ({ ...r, communes: communesByRegion.get(r.id) ?? [] }))
      .filter((r) => r.communes.length > 0),
  };
}

async function writeReports(db: Database, tx: Orm, cipher: DataCipher, drafts: ReportDraft[]) {
  const { t } = db;
  const coded =
    <T extends typeof t.signalements | typeof t.presumeAuteurs | typeof t.victimes | typeof t.sources>(
      table: T,
    ) =>
    async (rows: Array<Partial<T['$inferInsert']>>) =>
      asReturned(
        await bulkInsert(db, tx, table, rows, {
          onConflictDoNothing: table.code,
          returning: [table.id, table.code],
        }),
      );
  const reportIds = await insertCoded(
    drafts.map((d) => d.row),
    'SIG',
    coded(t.signalements),
    // The code opens searchText (see ReportFactory), so a redrawn code replaces its prefix.
    (row, previous) => {
      row.searchText = normalizeSearch(row.code) + row.searchText.slice(normalizeSearch(previous).length);
    },
  );

  await recordSearchTerms(
    db,
    tx,
    drafts.map((d) => d.row.searchText),
  );

  const subjectLinks: Array<typeof t.signalementSubjects.$inferInsert> = [];
  const projectLinks: Array<typeof t.signalementProjects.$inferInsert> = [];
  const auteurs: Array<typeof t.presumeAuteurs.$inferInsert> = [];
  const victimes: Array<typeof t.victimes.$inferInsert> = [];
  const sources: Array<typeof t.sources.$inferInsert> = [];
  const canalsOfSource = new Map<object, number[]>();
  for (const d of drafts) {
    const signalementId = reportIds.get(d.row.code)!;
    const createdAt = d.row.createdAt;
    for (const subjectId of d.subjectIds) subjectLinks.push({ signalementId, subjectId });
    for (const projectId of d.projectIds) projectLinks.push({ signalementId, projectId });
    for (const a of d.auteurs) auteurs.push({ ...a, signalementId, createdAt });
    for (const v of d.victimes) victimes.push({ ...v, signalementId, createdAt });
    for (const { canalIds, code, ...values } of d.sources) {
      // Written as the service writes them: encrypted, with the name's blind index (docs/decisions/0017).
      const row = { code, ...sealSource(cipher, values), signalementId, createdAt };
      sources.push(row);
      canalsOfSource.set(row, canalIds);
    }
  }
  await bulkInsert(db, tx, t.signalementSubjects, subjectLinks, {
    returning: [t.signalementSubjects.signalementId],
  });
  await bulkInsert(db, tx, t.signalementProjects, projectLinks, {
    returning: [t.signalementProjects.signalementId],
  });
  await insertCoded(auteurs, 'AUT', coded(t.presumeAuteurs));
  await insertCoded(victimes, 'VIC', coded(t.victimes));
  const sourceIds = await insertCoded(sources, 'SRC', coded(t.sources));
  const sourceCanaux = sources.flatMap((s) =>
    (canalsOfSource.get(s) ?? []).map((canalId) => ({ sourceId: sourceIds.get(s.code)!, canalId })),
  );
  await bulkInsert(db, tx, t.sourceCanaux, sourceCanaux, { returning: [t.sourceCanaux.sourceId] });
  return { auteurs: auteurs.length, sources: sources.length, victimes: victimes.length };
}

/**
 * Realistic demo content: partners, projects, users of every role and `reports` reports spread over
 * the last two years and every region, with their children. Runs the reference seed first. Adds
 * reports on every call; partners, projects and users are created only when missing.
 */
export async function seedDemo(ctx: WithCipher, options: DemoOptions): Promise<DemoResult> {
  const { db } = ctx;
  // Sources are written encrypted: without the data key, nothing is written.
  const cipher = cipherOf(ctx);
  const total = Math.max(0, Math.floor(options.reports));
  await seed(db);
  const now = Date.now();
  const actors = await db.transaction((tx) => ensureActors(db, tx, now));
  if (actors.users.length === 0) throw new Error('Aucun utilisateur de démonstration disponible');
  const context: ReportContext = {
    now,
    users: actors.users,
    partners: actors.partners,
    ...(await loadReferences(db)),
  };
  const factory = new ReportFactory(context, new Random(options.seed ?? 20_260_101), newCode);

  // Reports are written oldest first, as they would have been filed, so ids grow with signalementAt
  // as in a real database (and each (column, signalementAt) index grows at its end).
  const dates = Float64Array.from({ length: total }, () => factory.signalementAt()).sort();
  const result: DemoResult = { reports: 0, ...actors.created, auteurs: 0, sources: 0, victimes: 0 };
  for (let start = 0; start < total; start += CHUNK) {
    const drafts = Array.from({ length: Math.min(CHUNK, total - start) }, (_, i) =>
      factory.make(start + i, dates[start + i]!),
    );
    const written = await db.transaction((tx) => writeReports(db, tx, cipher, drafts));
    result.reports += drafts.length;
    result.auteurs += written.auteurs;
    result.sources += written.sources;
    result.victimes += written.victimes;
    options.onProgress?.(result.reports, total);
  }
  // The reports were written without the service: their due days, set-based (docs/decisions/0032).
  if (total > 0) await refreshDueDays(db, 'all');
  return result;
}
