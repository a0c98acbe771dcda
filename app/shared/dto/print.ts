// What the server returns for the print view of a report (docs/decisions/0043-print-view.md). Dates are ISO
// strings.
import type { EvidenceListDto } from './evidence';
import type { NotesListDto } from './notes';
import type {
  AuteurDto,
  HistoriqueEntryDto,
  SignalementDto,
  SourcesListDto,
  VictimeDto,
} from './signalements';

/**
 * Everything the print of one report shows, as the detail shows it to the same reader: its sources, notes
 * and files only when the reader may know the sources of an anonymous report (otherwise their number).
 */
export interface ImpressionDto {
  signalement: SignalementDto;
  auteurs: AuteurDto[];
  sources: SourcesListDto;
  victimes: VictimeDto[];
  /** Null when the print was asked without them (« Inclure les notes internes » unticked, the default). */
  notes: NotesListDto | null;
  piecesJointes: EvidenceListDto;
  /** Newest first, null when the print was asked without it (« Inclure l'historique » unticked). */
  historique: HistoriqueEntryDto[] | null;
  /** When the server answered, for « Imprimé le … ». */
  imprimeLe: string;
  /** The reader, for « … par {prénom nom} ». */
  imprimePar: { code: string; nomPrenom: string };
}
