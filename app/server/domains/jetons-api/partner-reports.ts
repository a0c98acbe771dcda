// What a partner API token reads of its partner's reports (docs/decisions/0038-partner-api-tokens.md): codes,
// dates, statut, résultat, niveau and the partner, selected column by column from the report's own row. It
// never goes through the staff answers (which carry people, places, descriptions, notes, history): a field
// that is not selected here cannot leak, whatever the staff shape gains later.
import { and, count, desc, eq } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { collection, type Collection } from '#server/http/jsonld';
import { notFound } from '#server/errors';
import type { TokenCaller } from './bearer';

export const PARTNER_PAGE_SIZE = 30;

interface Ref {
  '@id': string;
  code: string;
  designation: string;
}

/** A report as its partner's system sees it. */
export interface SignalementPartenaireDto {
  '@id': string;
  '@type': 'Signalement';
  code: string;
  signalementAt: string;
  createdAt: string;
  lastActionAt: string | null;
  closeAt: string | null;
  statut: Ref | null;
  resultat: Ref | null;
  niveau: Ref | null;
  partenaire: Ref;
}

function select(db: Database) {
  const { signalements: s, statuts, resultats, niveaux, partenaires } = db.t;
  return db.read
    .select({
      code: s.code,
      signalementAt: s.signalementAt,
      createdAt: s.createdAt,
      lastActionAt: s.lastActionAt,
      closeAt: s.closeAt,
      statutCode: statuts.code,
      statutDesignation: statuts.designation,
      resultatCode: resultats.code,
      resultatDesignation: resultats.designation,
      niveauCode: niveaux.code,
      niveauDesignation: niveaux.designation,
      partenaireCode: partenaires.code,
      partenaireDesignation: partenaires.designation,
    })
    .from(s)
    .innerJoin(partenaires, eq(partenaires.id, s.partenaireId))
    .leftJoin(statuts, eq(statuts.id, s.statutId))
    .leftJoin(resultats, eq(resultats.id, s.resultatId))
    .leftJoin(niveaux, eq(niveaux.id, s.niveauId));
}

type Row = Awaited<ReturnType<ReturnType<typeof select>['execute']>>[number];

const ref = (collectionName: string, code: string | null, designation: string | null): Ref | null =>
  code === null ? null : { '@id': `/api/${collectionName}/${code}`, code, designation: designation ?? '' };

function toDto(row: Row): SignalementPartenaireDto {
  return {
    '@id': `/api/signalements/${encodeURIComponent(row.code)}`,
    '@type': 'Signalement',
    code: row.code,
    signalementAt: row.signalementAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    lastActionAt: row.lastActionAt?.toISOString() ?? null,
    closeAt: row.closeAt?.toISOString() ?? null,
    statut: ref('statuts', row.statutCode, row.statutDesignation),
    resultat: ref('resultats', row.resultatCode, row.resultatDesignation),
    niveau: ref('niveaux', row.niveauCode, row.niveauDesignation),
    partenaire: ref('partenaires', row.partenaireCode, row.partenaireDesignation)!,
  };
}

/** One report of the token's partner; another partner's report is as unknown as a code that does not exist. */
export async function partnerReport(
  db: Database,
  jeton: TokenCaller,
  code: string,
): Promise<SignalementPartenaireDto> {
  const s = db.t.signalements;
  const [row] = await select(db)
    .where(and(eq(s.code, code), eq(s.partenaireId, jeton.partenaireId)))
    .limit(1);
  if (!row) throw notFound('Signalement introuvable.');
  return toDto(row);
}

/** The partner's reports, newest first, a page at a time. */
export async function partnerReports(
  db: Database,
  jeton: TokenCaller,
  page: number,
  url: string,
): Promise<Collection<SignalementPartenaireDto>> {
  const s = db.t.signalements;
  const mine = eq(s.partenaireId, jeton.partenaireId);
  const [rows, [total]] = await Promise.all([
    select(db)
      .where(mine)
      .orderBy(desc(s.signalementAt), desc(s.id))
      .limit(PARTNER_PAGE_SIZE)
      .offset((page - 1) * PARTNER_PAGE_SIZE),
    db.read.select({ n: count() }).from(s).where(mine),
  ]);
  return collection('Signalement', url, rows.map(toDto), total!.n, {
    page,
    itemsPerPage: PARTNER_PAGE_SIZE,
  });
}
