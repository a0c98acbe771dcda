// Presumed authors, sources and victims of a report. Rights are the report's (creator or admin);
// every change is recorded in the report's history and refreshes its search text.
import { asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { AuteurDto, VictimeDto } from '#shared/dto/signalements';
import type {
  auteurCreateSchema,
  auteurSchema,
  victimeCreateSchema,
  victimeSchema,
} from '#shared/schemas/signalements';
import type { Services } from '#server/context';
import type { Database } from '#server/db/client';
import type { SessionUser } from '../auth/session';
import { recordPeopleRead } from '../journal/record';
import { iri } from '../referentiels/dto';
import { findEditable, findSignalement } from '../signalements/access';
import { diff } from '../signalements/history';
import { afterChange, findPerson, insertWithCode, personForRead, pick, PREFIX } from './person-rows';

export { deletePerson } from './person-rows';
export { createSource, listSources, readSources, rereadSource, updateSource } from './sources';

/** What the reads below need of a report. */
type ReportRef = { id: number; code: string };

// ---------------------------------------------------------------- authors
/** The report's presumed authors; the read is written in the access log before they are returned. */
export async function listAuteurs(
  ctx: Services,
  actor: SessionUser,
  signalement: string,
): Promise<AuteurDto[]> {
  const report = await findSignalement(ctx.db, signalement);
  const auteurs = await readAuteurs(ctx.db, report);
  await recordPeopleRead(ctx, actor, report.code, { personnes: 'auteurs', nombre: auteurs.length });
  return auteurs;
}

/** The report's presumed authors, not logged: for a caller that logs the read itself (the print view). */
export async function readAuteurs(db: Database, report: ReportRef): Promise<AuteurDto[]> {
  const t = db.t.presumeAuteurs;
  const rows = await db.read
    .select()
    .from(t)
    .where(eq(t.signalementId, report.id))
    .orderBy(asc(t.createdAt), asc(t.id));
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
  const report = await findSignalement(ctx.db, signalement);
  const victimes = await readVictimes(ctx.db, report);
  await recordPeopleRead(ctx, actor, report.code, { personnes: 'victimes', nombre: victimes.length });
  return victimes;
}

/** The report's victims, not logged: for a caller that logs the read itself (the print view). */
export async function readVictimes(db: Database, report: ReportRef): Promise<VictimeDto[]> {
  const t = db.t.victimes;
  const rows = await db.read
    .select()
    .from(t)
    .where(eq(t.signalementId, report.id))
    .orderBy(asc(t.createdAt), asc(t.id));
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
