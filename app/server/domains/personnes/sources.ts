// The sources of a report: encrypted at rest (decision 0017), their channels, and need-to-know (a
// protected source is only counted for whoever may not know it, decision 0015).
import { asc, count, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { SourceDto, SourcesListDto } from '#shared/dto/signalements';
import type { sourceCreateSchema, sourceSchema } from '#shared/schemas/signalements';
import { cipherOf, type Services, type WithCipher } from '#server/context';
import { openSource, sealSource } from '#server/crypto/sources';
import type { Database, Orm } from '#server/db/client';
import type { SessionUser } from '../auth/session';
import { recordPeopleRead, type PeopleRead } from '../journal/record';
import { iri } from '../referentiels/dto';
import {
  canSeeSources,
  findEditable,
  findSignalement,
  idsOf,
  type SignalementRow,
} from '../signalements/access';
import { diff } from '../signalements/history';
import { afterChange, findPerson, insertWithCode, personForRead, pick, PREFIX } from './person-rows';

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
  const report = await findSignalement(ctx.db, signalement);
  const { list, read } = await readSources(ctx, actor, report);
  await recordPeopleRead(ctx, actor, report.code, read);
  return list;
}

/**
 * The report's sources as listSources answers them, and what the access log must say of the read, not
 * logged: for a caller that logs the read itself (the print view). Same need-to-know rule.
 */
export async function readSources(
  ctx: WithCipher,
  actor: SessionUser,
  report: SignalementRow,
): Promise<{ list: SourcesListDto; read: PeopleRead }> {
  const { db } = ctx;
  const t = db.t;
  if (!canSeeSources(actor, report)) {
    const [row] = await db.read
      .select({ n: count() })
      .from(t.sources)
      .where(eq(t.sources.signalementId, report.id));
    const masquees = Number(row?.n ?? 0);
    return {
      list: { sources: [], isAnonyme: true, sourcesProtegees: masquees },
      read: { personnes: 'sources', protegees: true, masquees },
    };
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
  const cipher = cipherOf(ctx);
  return {
    list: {
      sources: rows.map((r) => sourceDto(openSource(cipher, r), canaux.get(r.id) ?? [], report.code)),
      isAnonyme: report.isAnonyme,
      sourcesProtegees: 0,
    },
    read: { personnes: 'sources', nombre: rows.length },
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
