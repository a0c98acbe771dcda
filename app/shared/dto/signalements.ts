// What the server returns for reports and their people, on tRPC and on the REST facade alike.
// Dates are ISO strings. '@id' is the REST address of the resource ('/api/<collection>/<code>').

export interface RefDto {
  '@id': string;
  code: string;
  designation: string;
}
export interface CanalDto extends RefDto {
  icon: string;
}
export interface NiveauDto extends RefDto {
  color: string;
  rank: number;
}
export interface StatutDto extends RefDto {
  kind: 'open' | 'treated' | 'closed';
}
export interface PartenaireRefDto extends RefDto {
  initial: string;
  color: string;
}
export interface ProjectDto extends RefDto {
  sigle: string;
  description: string | null;
  owner: PartenaireRefDto;
}
export interface PlaceDto extends RefDto {
  latitude: number | null;
  longitude: number | null;
}
export interface UserRefDto {
  '@id': string;
  code: string;
  email: string;
  nomPrenom: string;
}

/** A staff member named on a report: code and name only (least privilege, docs/decisions/0015). */
export interface StaffRefDto {
  '@id': string;
  code: string;
  nomPrenom: string;
}

/** One assignee of a report (docs/decisions/0028), '@id' /api/signalements/{code}/assignes/{user}. */
export interface AssignationDto {
  '@id': string;
  '@type': 'Assignation';
  utilisateur: StaffRefDto;
  assignedBy: StaffRefDto | null;
  assignedAt: string;
}

export interface SignalementDto {
  '@id': string;
  '@type': 'Signalement';
  code: string;
  signalementAt: string;
  createdAt: string;
  closeAt: string | null;
  lastActionAt: string | null;
  createdBy: UserRefDto;
  partenaire: PartenaireRefDto;
  canalPrincipal: CanalDto | null;
  autreCanalPrincipal: string | null;
  autreObject: string | null;
  subjects: RefDto[];
  region: PlaceDto | null;
  district: PlaceDto | null;
  commune: PlaceDto | null;
  fokontany: string | null;
  projects: ProjectDto[];
  isTreated: boolean;
  /**
   * The handling deadline's due day, 'yyyy-MM-dd' (docs/decisions/0032-deadlines.md): null when the report
   * is treated or closed, has no niveau, or its niveau has no deadline. Overdue from the day after.
   */
  echeance: string | null;
  isInternalResponsability: boolean;
  isConfict: boolean;
  isRecurrent: boolean;
  isAnonyme: boolean;
  niveau: NiveauDto | null;
  statut: StatutDto | null;
  resultat: RefDto | null;
  description: string | null;
  actionProvisoires: string[];
  preuves: string[];
  /** Who works on it (docs/decisions/0028), by name; empty: « Non assigné ». */
  assignees: StaffRefDto[];
  /** Whether the caller may edit this report (its creator, matched by e-mail, an assignee or an admin). */
  canEdit: boolean;
  /** Whether the caller may assign and unassign it (its creator or an admin). */
  canAssign: boolean;
  /**
   * One more at every change of the report's own fields: the edit precondition (`expectedVersion`,
   * `If-Match`), docs/decisions/0047-edit-conflicts.md.
   */
  version: number;
}

/**
 * A report as the list shows it (`GET /api/signalements` members, tRPC `signalements.list` items): what the
 * list's columns and mobile cards display, each field a part of the same field of `SignalementDto` (the
 * report's whole representation, `GET /api/signalements/{code}`). A reference carries its code (what the
 * list's filters take) and what the list shows of it, not its `@id` (`/api/<collection>/<code>`).
 * docs/decisions/0027-list-rows.md; the server builds it in one place (`server/domains/signalements/list-row.ts`).
 */
export interface SignalementListItemDto {
  '@id': string;
  '@type': 'Signalement';
  code: string;
  signalementAt: string;
  partenaire: ListRefDto & Pick<PartenaireRefDto, 'color'>;
  subjects: ListRefDto[];
  canalPrincipal: ListRefDto | null;
  region: ListRefDto | null;
  district: ListRefDto | null;
  commune: ListRefDto | null;
  statut: ListRefDto | null;
  niveau: (ListRefDto & Pick<NiveauDto, 'color'>) | null;
  isTreated: boolean;
  /** The due day, as SignalementDto's (docs/decisions/0032). */
  echeance: string | null;
  /** « Assigné à »: empty for « Non assigné » (docs/decisions/0028-assignees-rights.md). */
  assignees: Pick<StaffRefDto, 'code' | 'nomPrenom'>[];
}
/** A reference in a list row: its code and its label. */
export type ListRefDto = Pick<RefDto, 'code' | 'designation'>;

export interface AuteurDto {
  '@id': string;
  '@type': 'PresumeAuteur';
  code: string;
  nomPrenom: string;
  fonction: string | null;
  description: string | null;
  signalement: string;
}
export interface SourceDto {
  '@id': string;
  '@type': 'Source';
  code: string;
  nomPrenom: string | null;
  contact: string | null;
  description: string | null;
  autreCanal: string | null;
  canaux: Array<{ '@id': string; code: string; designation: string }>;
  signalement: string;
}
export interface VictimeDto {
  '@id': string;
  '@type': 'Victime';
  code: string;
  nomPrenom: string;
  fonction: string | null;
  contact: string | null;
  signalement: string;
}

export interface LocalisationDto {
  region: PlaceDto | null;
  district: PlaceDto | null;
  commune: PlaceDto | null;
  fokontany: string | null;
}

export interface HistoriqueEntryDto {
  id: number;
  at: string;
  action: string;
  user: { code: string; nomPrenom: string } | null;
  changes: Record<string, { from: unknown; to: unknown }>;
  /** Entry about a protected source (anonymous report, need to know): every value is null. */
  masque?: true;
}

/** A report's sources; for a caller without the need to know, none and their number. */
export interface SourcesListDto {
  sources: SourceDto[];
  isAnonyme: boolean;
  /** Sources withheld from this caller (anonymous report, neither its creator nor an admin); 0 otherwise. */
  sourcesProtegees: number;
}

/** The public summary: no people, no description, no creator. */
export interface SignalementResumeDto {
  code: string;
  signalementAt: string;
  canalPrincipal: { code: string; designation: string } | null;
  statut: { code: string; designation: string } | null;
  niveau: { code: string; designation: string; color: string } | null;
  isTreated: boolean;
  subjects: Array<{ code: string; designation: string }>;
  autreObject: string | null;
  projects: Array<{ sigle: string; designation: string }>;
  region: string | null;
  district: string | null;
  commune: string | null;
  fokontany: string | null;
  isAnonyme: boolean;
  isConfict: boolean;
  isRecurrent: boolean;
  actionProvisoires: string[];
  preuves: string[];
  /** The business time zone the dates are read in (docs/decisions/0018-business-calendar.md). */
  timeZone: string;
}
