// Presumed authors, sources and victims of a report. Rights are the report's (creator or admin);
// every change is recorded in the report's history and refreshes its search text.
import { asc, count, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { AuteurDto, SourceDto, SourcesListDto, VictimeDto } from '#shared/dto/signalements';
import type {
  auteurCreateSchema,
  auteurSchema,
  sourceCreateSchema,
  sourceSchema,
  victimeCreateSchema,
  victimeSchema,
} from '#shared/schemas/signalements';
import { cipherOf, type Services } from '#server/context';
import { openSource, sealSource, SOURCE_FIELDS } from '#server/crypto/sources';
import type { Database, Orm } from '#server/db/client';
import { insertWithFreshCode } from '#server/db/fresh-code';
import { notFound } from '#server/errors';
import type { SessionUser } from '../auth/session';
import { recordPeopleRead } from '../journal/record';
import { iri } from '../referentiels/dto';
import { canSeeSources, findEditable, findSignalement, idsOf } from '../signalements/access';
import { generateCode } from '../signalements/code';
import { diff, recordChange } from '../signalements/history';
import { refreshSearchText } from '../signalements/search-refresh';

type Kind = 'auteur' | 'source' | 'victime';
const PREFIX: Record<Kind, string> = { auteur: 'AUT', source: 'SRC', victime: 'VIC' };
const NOT_FOUND: Record<Kind, string> = {
  auteur: 'Auteur introuvable.',
  source: 'Source introuvable.',
  victime: 'Victime introuvable.',
};

function tableOf(db: Database, kind: Kind) {
  return kind === 'auteur' ? db.t.presumeAuteurs : kind === 'source' ? db.t.sources : db.t.victimes;
}

/** The person row and its report, checking the actor may edit that report. */
async function findPerson(db: Database, tx: Orm, actor: SessionUser, kind: Kind, code: string) {
  const table = tableOf(db, kind);
  const s = db.t.signalements;
  const [row] = await tx
    .select({ id: table.id, reportCode: s.code })
    .from(table)
    .innerJoin(s, eq(s.id, table.signalementId))
    .where(eq(table.code, code))
    .limit(1);
  if (!row) throw notFound(NOT_FOUND[kind]);
  const report = await findEditable(db, actor, row.reportCode, tx);
  return { id: row.id, report };
}

/** Inserts with a fresh `PREFIX-XXXX-XXXX` code (server/db/fresh-code.ts). */
const insertWithCode = <T>(insert: (code: string) => Promise<T | undefined>, prefix: string) =>
  insertWithFreshCode(prefix, () => generateCode(prefix), insert);

// ---------------------------------------------------------------- authors
/** The report's presumed authors; the read is written in the access log before they are returned. */
export async function listAuteurs(
  ctx: Services,
  actor: SessionUser,
  signalement: string,
): Promise<AuteurDto[]> {
  const { db } = ctx;
  const report = await findSignalement(db, signalement);
  const t = db.t.presumeAuteurs;
  const rows = await db.read
    .select()
    .from(t)
    .where(eq(t.signalementId, report.id))
    .orderBy(asc(t.createdAt), asc(t.id));
  await recordPeopleRead(ctx, actor, report.code, { personnes: 'auteurs', nombre: rows.length });
  return rows.map((r) => auteurDto(r, report.code));
}

const auteurDto = (
  r: { code: string; nomPrenom: string; fonction: string | null; description: string | null },
  reportCode: string,
): AuteurDto => ({
  '@id': iri('presume_auteurs', r.code),
  '@type': 'PresumeAuteur',
  code: r.code,
  nomPrenom: r.nomPrenom,
  fonction: r.fonction,
  description: r.description,
  signalement: iri('signalements', reportCode),
});

export async function createAuteur(
  ctx: Services,
  actor: SessionUser,
  input: z.output<typeof auteurCreateSchema>,
) {
  const { db } = ctx;
  const t = db.t.presumeAuteurs;
  return db.transaction(async (tx) => {
    const report = await findEditable(db, actor, input.signalement, tx);
    const values = { nomPrenom: input.nomPrenom, fonction: input.fonction, description: input.description };
    const row = await insertWithCode(
      async (code) =>
        (
          await tx
            .insert(t)
            .values({ code, signalementId: report.id, ...values })
            .onConflictDoNothing({ target: t.code })
            .returning()
        )[0],
      PREFIX.auteur,
    );
    await afterChange(ctx, tx, report.id, actor, 'auteur.ajout', diff({}, { code: row.code, ...values }));
    return auteurDto(row, report.code);
  });
}

export async function updateAuteur(
  ctx: Services,
  actor: SessionUser,
  code: string,
  input: z.output<typeof auteurSchema>,
) {
  const { db } = ctx;
  const t = db.t.presumeAuteurs;
  return db.transaction(async (tx) => {
    const { id, report } = await findPerson(db, tx, actor, 'auteur', code);
    const [before] = await tx.select().from(t).where(eq(t.id, id));
    const [row] = await tx.update(t).set(input).where(eq(t.id, id)).returning();
    const changes = diff(pick(before!, input), input);
    if (Object.keys(changes).length > 0)
      await afterChange(ctx, tx, report.id, actor, 'auteur.modification', {
        code: { from: code, to: code },
        ...changes,
      });
    return auteurDto(row!, report.code);
  });
}

// ---------------------------------------------------------------- sources
async function sourceCanaux(db: Database, tx: Orm, ids: number[]) {
  if (ids.length === 0) return new Map<number, SourceDto['canaux']>();
  const { sourceCanaux: sc, canals } = db.t;
  const rows = await tx
    .select({ sourceId: sc.sourceId, code: canals.code, designation: canals.designation })
    .from(sc)
    .innerJoin(canals, eq(canals.id, sc.canalId))
    .where(inArray(sc.sourceId, ids))
    .orderBy(asc(canals.position));
  const map = new Map<number, SourceDto['canaux']>();
  for (const r of rows) {
    map.set(r.sourceId, [
      ...(map.get(r.sourceId) ?? []),
      { '@id': iri('canals', r.code), code: r.code, designation: r.designation },
    ]);
  }
  return map;
}

type SourceRow = {
  id: number;
  code: string;
  nomPrenom: string | null;
  contact: string | null;
  description: string | null;
  autreCanal: string | null;
};

const sourceDto = (r: SourceRow, canaux: SourceDto['canaux'], reportCode: string): SourceDto => ({
  '@id': iri('sources', r.code),
  '@type': 'Source',
  code: r.code,
  nomPrenom: r.nomPrenom,
  contact: r.contact,
  description: r.description,
  autreCanal: r.autreCanal,
  canaux,
  signalement: iri('signalements', reportCode),
});

/**
 * The report's sources, or only their number for a caller who may not know them (need to know). The
 * read is written in the access log (what the caller got) before the answer is returned.
 */
export async function listSources(
  ctx: Services,
  actor: SessionUser,
  signalement: string,
): Promise<SourcesListDto> {
  const { db } = ctx;
  const report = await findSignalement(db, signalement);
  const t = db.t;
  if (!canSeeSources(actor, report)) {
    const [row] = await db.read
      .select({ n: count() })
      .from(t.sources)
      .where(eq(t.sources.signalementId, report.id));
    const masquees = Number(row?.n ?? 0);
    await recordPeopleRead(ctx, actor, report.code, { personnes: 'sources', protegees: true, masquees });
    return { sources: [], isAnonyme: true, sourcesProtegees: masquees };
  }
  const rows = await db.read
    .select()
    .from(t.sources)
    .where(eq(t.sources.signalementId, report.id))
    .orderBy(asc(t.sources.createdAt), asc(t.sources.id));
  const canaux = await sourceCanaux(
    db,
    db.read,
    rows.map((r) => r.id),
  );
  await recordPeopleRead(ctx, actor, report.code, { personnes: 'sources', nombre: rows.length });
  const cipher = cipherOf(ctx);
  return {
    sources: rows.map((r) => sourceDto(openSource(cipher, r), canaux.get(r.id) ?? [], report.code)),
    isAnonyme: report.isAnonyme,
    sourcesProtegees: 0,
  };
}

async function setSourceCanaux(db: Database, tx: Orm, sourceId: number, codes: string[]) {
  const { sourceCanaux: sc, canals } = db.t;
  const ids = await idsOf(tx, canals, codes, 'Canal');
  await tx.delete(sc).where(eq(sc.sourceId, sourceId));
  if (ids.length > 0) await tx.insert(sc).values(ids.map((canalId) => ({ sourceId, canalId })));
}

function sourceValues(input: z.output<typeof sourceSchema>) {
  return {
    nomPrenom: input.nomPrenom,
    contact: input.contact,
    description: input.description,
    autreCanal: input.canaux.includes('OTHERS') ? input.autreCanal : null,
  };
}

export async function createSource(
  ctx: Services,
  actor: SessionUser,
  input: z.output<typeof sourceCreateSchema>,
) {
  const { db } = ctx;
  const t = db.t.sources;
  return db.transaction(async (tx) => {
    const report = await findEditable(db, actor, input.signalement, tx);
    const values = sourceValues(input);
    const row = await insertWithCode(
      async (code) =>
        (
          await tx
            .insert(t)
            .values({ code, signalementId: report.id, ...sealSource(cipherOf(ctx), values) })
            .onConflictDoNothing({ target: t.code })
            .returning()
        )[0],
      PREFIX.source,
    );
    await setSourceCanaux(db, tx, row.id, input.canaux);
    const canaux = (await sourceCanaux(db, tx, [row.id])).get(row.id) ?? [];
    await afterChange(
      ctx,
      tx,
      report.id,
      actor,
      'source.ajout',
      diff({}, { code: row.code, ...values, canaux: canaux.map((c) => c.designation) }),
    );
    return sourceDto({ ...row, ...values }, canaux, report.code);
  });
}

export async function updateSource(
  ctx: Services,
  actor: SessionUser,
  code: string,
  input: z.output<typeof sourceSchema>,
) {
  const { db } = ctx;
  const t = db.t.sources;
  return db.transaction(async (tx) => {
    const { id, report } = await findPerson(db, tx, actor, 'source', code);
    const cipher = cipherOf(ctx);
    const [stored] = await tx.select().from(t).where(eq(t.id, id));
    const before = openSource(cipher, stored!);
    const canauxBefore = ((await sourceCanaux(db, tx, [id])).get(id) ?? []).map((c) => c.designation);
    const values = sourceValues(input);
    const [row] = await tx.update(t).set(sealSource(cipher, values)).where(eq(t.id, id)).returning();
    await setSourceCanaux(db, tx, id, input.canaux);
    const canaux = (await sourceCanaux(db, tx, [id])).get(id) ?? [];
    const changes = diff(
      { ...pick(before, values), canaux: canauxBefore },
      { ...values, canaux: canaux.map((c) => c.designation) },
    );
    if (Object.keys(changes).length > 0)
      await afterChange(ctx, tx, report.id, actor, 'source.modification', {
        code: { from: code, to: code },
        ...changes,
      });
    return sourceDto({ ...row!, ...values }, canaux, report.code);
  });
}

// ---------------------------------------------------------------- victims
const victimeDto = (
  r: { code: string; nomPrenom: string; fonction: string | null; contact: string | null },
  reportCode: string,
): VictimeDto => ({
  '@id': iri('victimes', r.code),
  '@type': 'Victime',
  code: r.code,
  nomPrenom: r.nomPrenom,
  fonction: r.fonction,
  contact: r.contact,
  signalement: iri('signalements', reportCode),
});

/** The report's victims; the read is written in the access log before they are returned. */
export async function listVictimes(
  ctx: Services,
  actor: SessionUser,
  signalement: string,
): Promise<VictimeDto[]> {
  const { db } = ctx;
  const report = await findSignalement(db, signalement);
  const t = db.t.victimes;
  const rows = await db.read
    .select()
    .from(t)
    .where(eq(t.signalementId, report.id))
    .orderBy(asc(t.createdAt), asc(t.id));
  await recordPeopleRead(ctx, actor, report.code, { personnes: 'victimes', nombre: rows.length });
  return rows.map((r) => victimeDto(r, report.code));
}

export async function createVictime(
  ctx: Services,
  actor: SessionUser,
  input: z.output<typeof victimeCreateSchema>,
) {
  const { db } = ctx;
  const t = db.t.victimes;
  return db.transaction(async (tx) => {
    const report = await findEditable(db, actor, input.signalement, tx);
    const values = { nomPrenom: input.nomPrenom, fonction: input.fonction, contact: input.contact };
    const row = await insertWithCode(
      async (code) =>
        (
          await tx
            .insert(t)
            .values({ code, signalementId: report.id, ...values })
            .onConflictDoNothing({ target: t.code })
            .returning()
        )[0],
      PREFIX.victime,
    );
    await afterChange(ctx, tx, report.id, actor, 'victime.ajout', diff({}, { code: row.code, ...values }));
    return victimeDto(row, report.code);
  });
}

export async function updateVictime(
  ctx: Services,
  actor: SessionUser,
  code: string,
  input: z.output<typeof victimeSchema>,
) {
  const { db } = ctx;
  const t = db.t.victimes;
  return db.transaction(async (tx) => {
    const { id, report } = await findPerson(db, tx, actor, 'victime', code);
    const [before] = await tx.select().from(t).where(eq(t.id, id));
    const [row] = await tx.update(t).set(input).where(eq(t.id, id)).returning();
    const changes = diff(pick(before!, input), input);
    if (Object.keys(changes).length > 0)
      await afterChange(ctx, tx, report.id, actor, 'victime.modification', {
        code: { from: code, to: code },
        ...changes,
      });
    return victimeDto(row!, report.code);
  });
}

// ---------------------------------------------------------------- replays
// A create repeated with its Idempotency-Key (decision 0020) answers the person as a fresh read would
// today, and is logged like one: the caller may have been demoted, the report made anonymous, the person
// changed or deleted since the create. The person's code comes from the stored answer.

/** The person's current row and report, for a read (404 when it was deleted since). */
async function personForRead(db: Database, kind: Kind, code: string) {
  const table = tableOf(db, kind);
  const [found] = await db.read
    .select({ person: table, reportCode: db.t.signalements.code })
    .from(table)
    .innerJoin(db.t.signalements, eq(db.t.signalements.id, table.signalementId))
    .where(eq(table.code, code))
    .limit(1);
  if (!found) throw notFound(NOT_FOUND[kind]);
  return { person: found.person, report: await findSignalement(db, found.reportCode) };
}

export async function rereadAuteur(ctx: Services, actor: SessionUser, stored: AuteurDto): Promise<AuteurDto> {
  const { db } = ctx;
  const { person, report } = await personForRead(db, 'auteur', stored.code);
  await recordPeopleRead(ctx, actor, report.code, { personnes: 'auteurs', nombre: 1 });
  return auteurDto(person as typeof db.t.presumeAuteurs.$inferSelect, report.code);
}

export async function rereadVictime(
  ctx: Services,
  actor: SessionUser,
  stored: VictimeDto,
): Promise<VictimeDto> {
  const { db } = ctx;
  const { person, report } = await personForRead(db, 'victime', stored.code);
  await recordPeopleRead(ctx, actor, report.code, { personnes: 'victimes', nombre: 1 });
  return victimeDto(person as typeof db.t.victimes.$inferSelect, report.code);
}

/**
 * A caller without the need to know gets the source's code and nothing that identifies it (what
 * listSources tells them: that a protected source exists), so that a retry still learns its create
 * succeeded and does not send it again.
 */
export async function rereadSource(ctx: Services, actor: SessionUser, stored: SourceDto): Promise<SourceDto> {
  const { db } = ctx;
  const { person, report } = await personForRead(db, 'source', stored.code);
  const row = person as typeof db.t.sources.$inferSelect;
  if (!canSeeSources(actor, report)) {
    await recordPeopleRead(ctx, actor, report.code, { personnes: 'sources', protegees: true, masquees: 1 });
    return sourceDto(
      { id: row.id, code: row.code, nomPrenom: null, contact: null, description: null, autreCanal: null },
      [],
      report.code,
    );
  }
  const canaux = (await sourceCanaux(db, db.read, [row.id])).get(row.id) ?? [];
  await recordPeopleRead(ctx, actor, report.code, { personnes: 'sources', nombre: 1 });
  return sourceDto(openSource(cipherOf(ctx), row), canaux, report.code);
}

// ---------------------------------------------------------------- shared
export async function deletePerson(
  ctx: Services,
  actor: SessionUser,
  kind: Kind,
  code: string,
): Promise<void> {
  const { db } = ctx;
  const table = tableOf(db, kind);
  await db.transaction(async (tx) => {
    const { id, report } = await findPerson(db, tx, actor, kind, code);
    const [before] = await tx.select({ nomPrenom: table.nomPrenom }).from(table).where(eq(table.id, id));
    // A source's name is stored encrypted; the history entry re-encrypts it (history.ts).
    const nomPrenom =
      kind === 'source'
        ? cipherOf(ctx).decryptNullable(before!.nomPrenom, SOURCE_FIELDS.nomPrenom)
        : before!.nomPrenom;
    await tx.delete(table).where(eq(table.id, id));
    await afterChange(ctx, tx, report.id, actor, `${kind}.suppression`, {
      code: { from: code, to: null },
      nomPrenom: { from: nomPrenom, to: null },
    });
  });
}

async function afterChange(
  ctx: Services,
  tx: Orm,
  reportId: number,
  actor: SessionUser,
  action: string,
  changes: Record<string, { from: unknown; to: unknown }>,
) {
  await refreshSearchText(ctx.db, tx, reportId);
  await recordChange(ctx.db, tx, reportId, actor, action, changes, { cipher: ctx.cipher });
}

function pick<T extends Record<string, unknown>>(
  row: Record<string, unknown>,
  like: T,
): Record<string, unknown> {
  return Object.fromEntries(Object.keys(like).map((k) => [k, row[k] ?? null]));
}
