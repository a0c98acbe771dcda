// What the server returns for the access log and its alerts (decision 0015). Dates are ISO strings.
import type { AccessAlertKind, AccessLogKind } from '../constants';

/** French label of each kind of entry, for the screen, its filter and the xlsx export. */
export const ACCESS_LOG_KIND_LABELS: Record<AccessLogKind, string> = {
  lecture_personnes: 'Lecture des personnes',
  lecture_historique: "Lecture de l'historique",
  lecture_notes: 'Lecture des notes internes',
  ecriture_notes: 'Écriture des notes internes',
  lecture_pieces_jointes: 'Pièces jointes',
  export: 'Export',
  droits: 'Droits et rôles',
  connexion: 'Connexion',
  echec_connexion: 'Échec de connexion',
  purge: 'Purge (durée de conservation)',
  action_groupee: 'Action groupée',
  parametres: 'Paramètres',
  jeton_api: "Jeton d'API",
  impression: 'Impression',
};

export const ACCESS_ALERT_KIND_LABELS: Record<AccessAlertKind, string> = {
  lecture_massive: 'Lecture inhabituelle de personnes',
  lecture_quotidienne: 'Lecture inhabituelle de personnes sur la journée',
  export_massif: 'Export massif',
  export_quotidien: 'Exports importants sur la journée',
};

export interface JournalUserDto {
  code: string;
  nomPrenom: string;
  email: string;
}

export interface AccessLogEntryDto {
  id: number;
  at: string;
  kind: AccessLogKind;
  /** The acting user, null for a failed log-in on an unknown e-mail. */
  utilisateur: JournalUserDto | null;
  /** The account's e-mail at the time of the entry (none for a failed log-in on an unknown e-mail). */
  email: string | null;
  address: string | null;
  signalement: string | null;
  /** What was read or changed, in French: 'Sources (3)', 'Export xlsx : 120 lignes', 'Rôle : … → …'. */
  description: string;
  details: Record<string, unknown>;
}

export interface AccessLogPageDto {
  items: AccessLogEntryDto[];
  total: number;
  page: number;
  pageSize: number;
}

export interface AccessAlertDto {
  id: number;
  kind: AccessAlertKind;
  createdAt: string;
  utilisateur: JournalUserDto;
  /** One French sentence: 'a consulté les personnes de 42 signalements en 10 minutes'. */
  message: string;
  details: Record<string, unknown>;
}
