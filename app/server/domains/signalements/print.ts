// The print view of a report (docs/decisions/0043-print-view.md): the whole report as its detail shows it to
// the same reader, in one answer, and one access-log entry for it. The parts are read by the same functions
// as the detail's cards, so the need-to-know rule is theirs, not a copy; their own logging is left to them
// and this print logs once, before anything is returned. The history and the internal notes are printed only
// when asked (« Inclure l'historique », « Inclure les notes internes »): notes go into an export only on request.
import type { ImpressionDto } from '#shared/dto/print';
import type { SessionUser } from '../auth/session';
import { readEvidence } from '../evidence/service';
import type { EvidenceContext } from '../evidence/files';
import { recordPrint, type PrintedPart } from '../journal/record';
import { readNotes } from '../notes/service';
import { readAuteurs, readSources, readVictimes } from '../personnes/service';
import { findSignalement } from './access';
import { readHistorique } from './history';
import { loadSignalements } from './loader';

const counted = (shown: number, masquees: number): PrintedPart =>
  masquees > 0 ? { protegees: true, masquees } : { nombre: shown };

export async function getImpression(
  ctx: EvidenceContext,
  actor: SessionUser,
  code: string,
  options: { historique: boolean; notes: boolean },
): Promise<ImpressionDto> {
  const { db } = ctx;
  const report = await findSignalement(db, code);
  const [[signalement], auteurs, sources, victimes, notes, evidence, historique] = await Promise.all([
    loadSignalements(db, [report.id], actor),
    readAuteurs(db, report),
    readSources(ctx, actor, report),
    readVictimes(db, report),
    options.notes ? readNotes(ctx, actor, report) : null,
    readEvidence(ctx, actor, report),
    options.historique ? readHistorique(ctx, actor, report) : null,
  ]);
  await recordPrint(ctx, actor, report.code, {
    auteurs: { nombre: auteurs.length },
    sources: counted(sources.list.sources.length, sources.list.sourcesProtegees),
    victimes: { nombre: victimes.length },
    ...(notes && { notes: counted(notes.list.notes.length, notes.list.masquees) }),
    piecesJointes: counted(evidence.list.piecesJointes.length, evidence.list.masquees),
    ...(historique && {
      historique: { entrees: historique.length, masquees: historique.filter((e) => e.masque).length },
    }),
  });
  return {
    signalement: signalement!,
    auteurs,
    sources: sources.list,
    victimes,
    notes: notes?.list ?? null,
    piecesJointes: evidence.list,
    historique,
    imprimeLe: ctx.clock.now().toISOString(),
    imprimePar: { code: actor.code, nomPrenom: actor.nomPrenom },
  };
}
