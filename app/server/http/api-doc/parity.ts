// Fails the type check when an answer's zod schema (shared/dto/schemas.ts) and the type the service returns
// drift apart: the documents would then describe another answer than the one sent.
import type { z } from 'zod';
import type * as dto from '#shared/dto/schemas';
import type { DelaiTraitementDto } from '#shared/dto/delais';
import type { EditConflictDto } from '#shared/dto/edit-conflict';
import type { EvidenceDto } from '#shared/dto/evidence';
import type { NoteDto } from '#shared/dto/notes';
import type { PreferencesDto } from '#shared/dto/preferences';
import type {
  AssignationDto,
  AuteurDto,
  HistoriqueEntryDto,
  LocalisationDto,
  SignalementDto,
  SignalementListItemDto,
  SignalementResumeDto,
  SourcesListDto,
  VictimeDto,
} from '#shared/dto/signalements';
import type { PasswordTokenState } from '#server/domains/auth/password-tokens';
import type { currentUserAnswer } from '#server/domains/auth/service';
import type { MyCasesDto } from '#server/domains/dashboard/my-cases';
import type * as dashboard from '#server/domains/dashboard/service';
import type { FailedMailDto } from '#server/domains/mail/service';
import type { PartenaireDto } from '#server/domains/partenaires/dto';
import type { SignalementPartenaireDto } from '#server/domains/jetons-api/partner-reports';
import type { BulkPreviewDto, BulkResultDto } from '#server/domains/signalements/bulk';
import type { ProjectDto } from '#shared/dto/signalements';
import type { UtilisateurDto, UtilisateurRoleDto } from '#server/domains/utilisateurs/dto';
import type {
  PointDeReceptionDto,
  PointDeReceptionSecretDto,
} from '#server/domains/webhooks/partner-endpoints';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
type Out<S extends z.ZodType> = z.output<S>;

export type DtoParity = [
  Assert<Same<Out<typeof dto.pointDeReceptionDtoSchema>, PointDeReceptionDto>>,
  Assert<Same<Out<typeof dto.pointDeReceptionSecretDtoSchema>, PointDeReceptionSecretDto>>,
  Assert<Same<Out<typeof dto.signalementDtoSchema>, SignalementDto>>,
  Assert<Same<Out<typeof dto.editConflictDtoSchema>, EditConflictDto>>,
  Assert<Same<Out<typeof dto.signalementListItemDtoSchema>, SignalementListItemDto>>,
  Assert<Same<Out<typeof dto.signalementPartenaireDtoSchema>, SignalementPartenaireDto>>,
  Assert<Same<Out<typeof dto.signalementResumeDtoSchema>, SignalementResumeDto>>,
  Assert<Same<Out<typeof dto.assignationDtoSchema>, AssignationDto>>,
  Assert<Same<Out<typeof dto.auteurDtoSchema>, AuteurDto>>,
  Assert<Same<Out<typeof dto.victimeDtoSchema>, VictimeDto>>,
  Assert<Same<Out<typeof dto.sourcesListDtoSchema>, SourcesListDto>>,
  Assert<Same<Out<typeof dto.localisationDtoSchema>, LocalisationDto>>,
  Assert<Same<Out<typeof dto.historiqueEntryDtoSchema>, HistoriqueEntryDto>>,
  Assert<Same<Out<typeof dto.projectDtoSchema>, ProjectDto>>,
  Assert<Same<Out<typeof dto.noteDtoSchema>, NoteDto>>,
  Assert<Same<Out<typeof dto.evidenceDtoSchema>, EvidenceDto>>,
  Assert<Same<Out<typeof dto.delaiTraitementDtoSchema>, DelaiTraitementDto>>,
  Assert<Same<Out<typeof dto.preferencesDtoSchema>, PreferencesDto>>,
  Assert<Same<Out<typeof dto.utilisateurDtoSchema>, UtilisateurDto>>,
  Assert<Same<Out<typeof dto.utilisateurRoleDtoSchema>, UtilisateurRoleDto>>,
  Assert<Same<Out<typeof dto.currentUserDtoSchema>, ReturnType<typeof currentUserAnswer>>>,
  Assert<Same<Out<typeof dto.partenaireDtoSchema>, PartenaireDto>>,
  Assert<Same<Out<typeof dto.failedMailDtoSchema>, FailedMailDto>>,
  Assert<Same<Out<typeof dto.bulkPreviewDtoSchema>, BulkPreviewDto>>,
  Assert<Same<Out<typeof dto.bulkResultDtoSchema>, BulkResultDto>>,
  Assert<Same<Out<typeof dto.passwordTokenStateSchema>, PasswordTokenState>>,
  Assert<Same<Out<typeof dto.keyMetricsSchema>, dashboard.KeyMetrics>>,
  Assert<Same<Out<typeof dto.myCasesSchema>, MyCasesDto>>,
  Assert<Same<Out<typeof dto.localisationCountsSchema>, dashboard.LocalisationCount[]>>,
  Assert<Same<Out<typeof dto.canalCountsSchema>, dashboard.CanalCount[]>>,
  Assert<Same<Out<typeof dto.subjectCountsSchema>, dashboard.SubjectCount[]>>,
  Assert<Same<Out<typeof dto.niveauCountsSchema>, dashboard.NiveauCount[]>>,
  Assert<Same<Out<typeof dto.resultatCountsSchema>, dashboard.ResultatCount[]>>,
  Assert<Same<Out<typeof dto.perDaySchema>, dashboard.PerDay>>,
];
