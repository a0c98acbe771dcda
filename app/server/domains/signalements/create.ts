// A report's creation (spec §5): its references looked up side by side before the transaction, then three
// statements in it: the report with its search text, its subjects, its history (decisions 0030, 0057, 0058).
import { asc, eq, inArray } from 'drizzle-orm';
import { MIN_SIGNALEMENT_DATE } from '#shared/constants';
import { DATE_TOO_OLD } from '#shared/schemas/common';
import type { signalementCreateSchema } from '#shared/schemas/signalements';
import type { z } from 'zod';
import type { AppContext } from '#server/context';
import type { Database } from '#server/db/client';
import { insertWithFreshCode } from '#server/db/fresh-code';
import { recordSearchTerms } from '#server/db/search';
import { invalid } from '#server/errors';
import type { SessionUser } from '../auth/session';
import { unknownCode } from './access';
import { generateSignalementCode } from './code';
import { diff, recordChange } from './history';
import { reportRowColumns } from './report-row';
import { reportSearchText } from './search-text';
import { createdParts, snapshotOf, type CreatedReferences } from './snapshot';

type CreateInput = z.output<typeof signalementCreateSchema>;

/**
 * Files a report. Answers its code and its id (for the answer's read; the id is not shown to clients).
 * Nothing is read back: the insert returns the stored row, and the references were looked up before.
 */
export async function createSignalement(
  ctx: Pick<AppContext, 'db' | 'calendar' | 'clock'>,
  actor: SessionUser,
  input: CreateInput,
): Promise<{ code: string; id: number }> {
  const { db, calendar } = ctx;
  const t = db.t;
  const signalementAt = calendar.instant(input.signalementAt);
  // The schema checks an instant against every zone's 1900-01-01; the business day it falls on decides.
  if (calendar.day(signalementAt) < MIN_SIGNALEMENT_DATE)
    throw invalid(DATE_TOO_OLD, { propertyPath: 'signalementAt' });
  const refs = await lookUpReferences(db, input);
  const autreCanalPrincipal = input.canalPrincipal === 'OTHERS' ? input.autreCanalPrincipal : null;
  const autreObject = input.subjects.includes('OTHERS') ? input.autreObject : null;
  return db.transaction(async (tx) => {
    const now = ctx.clock.now();
    // The search text is written with the report (it holds the code, so it is made for each code tried).
    const searchTextOf = (code: string) =>
      reportSearchText(
        {
          code,
          description: null,
          partenaire: refs.partenaire,
          subjects: refs.subjects,
          autreObject,
          places: [],
          fokontany: null,
        },
        [],
      );
    const stored = await insertWithFreshCode(
      'report',
      generateSignalementCode,
      async (code) =>
        (
          await tx
            .insert(t.signalements)
            .values({
              code,
              signalementAt,
              createdById: actor.id,
              partenaireId: refs.partenaire.id,
              canalPrincipalId: refs.canal.id,
              autreCanalPrincipal,
              autreObject,
              lastActionAt: now,
              searchText: searchTextOf(code),
            })
            .onConflictDoNothing({ target: t.signalements.code })
            .returning(reportRowColumns(db).s)
        )[0],
    );
    await tx
      .insert(t.signalementSubjects)
      .values(refs.subjects.map((subject) => ({ signalementId: stored.id, subjectId: subject.id })));
    // Nothing on PostgreSQL (its trigram index reads the column); SQLite's word list learns the new words.
    await recordSearchTerms(db, tx, [searchTextOf(stored.code)]);
    // A report is created without a niveau, so without a deadline: due_day's default (NO_DUE_DAY) is its
    // due day, and refreshDueDays runs when a niveau is set (docs/decisions/0032). The insert set
    // lastActionAt: no UPDATE of it (decision 0030).
    const created = snapshotOf(createdParts(stored, actor, refs));
    await recordChange(ctx, tx, stored.id, actor, 'creation', diff({}, created.fields), {
      lastActionAt: 'written',
    });
    return { code: stored.code, id: stored.id };
  });
}

/**
 * The partner, channel and subjects a create names, side by side (one round trip), outside the
 * transaction: a reference deleted meanwhile fails the insert's foreign key as it would inside (decision
 * 0030). The first unknown code named is always the same: the partner's, then the channel's, then the
 * subjects' in the order sent.
 */
async function lookUpReferences(db: Database, input: CreateInput): Promise<CreatedReferences> {
  const { partenaires: p, canals: c, subjects: s } = db.t;
  const columns = reportRowColumns(db);
  const codes = [...new Set(input.subjects)];
  const [[partenaire], [canal], subjects] = await Promise.all([
    db.read
      .select({ id: p.id, ...columns.partenaire })
      .from(p)
      .where(eq(p.code, input.partenaire))
      .limit(1),
    db.read
      .select({ id: c.id, ...columns.canal })
      .from(c)
      .where(eq(c.code, input.canalPrincipal))
      .limit(1),
    db.read
      .select({ id: s.id, code: s.code, designation: s.designation })
      .from(s)
      .where(inArray(s.code, codes))
      .orderBy(asc(s.position), asc(s.designation)),
  ]);
  if (!partenaire) throw unknownCode('Partenaire', input.partenaire);
  if (!canal) throw unknownCode('Canal', input.canalPrincipal);
  const missing = codes.find((code) => !subjects.some((subject) => subject.code === code));
  if (missing !== undefined) throw unknownCode('Objet', missing);
  return { partenaire, canal, subjects };
}
