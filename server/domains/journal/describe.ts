// The French words of the access log: one sentence per entry and per alert, for the screen, the
// xlsx export and the alert e-mails. Details are JSON written by record.ts; unknown shapes fall back
// to the kind's label rather than failing a page of the log.
import type { AccessAlertKind, AccessLogKind } from '../../../shared/constants';
import { ACCESS_LOG_KIND_LABELS } from '../../../shared/dto/journal';

type Details = Record<string, unknown>;

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const plural = (n: number, one: string, many: string) => `${n} ${n > 1 ? many : one}`;

const PEOPLE_LABELS: Record<string, string> = { auteurs: 'Auteurs présumés', sources: 'Sources', victimes: 'Victimes' };

/** Why a log-in failed, as stored in `details.motif`. */
export const LOGIN_FAILURES = {
  compte_inconnu: 'Compte inconnu',
  mot_de_passe_incorrect: 'Mot de passe incorrect',
  compte_sans_mot_de_passe: 'Compte sans mot de passe (activation non terminée)',
  compte_desactive: 'Compte désactivé',
  trop_de_tentatives: 'Trop de tentatives (connexion refusée sans vérification)',
  code_incorrect: 'Code de double authentification incorrect',
  code_de_secours_incorrect: 'Code de secours incorrect',
} as const;
export type LoginFailure = keyof typeof LOGIN_FAILURES;

/** Which step of a log-in succeeded, as stored in `details.etape`. */
export const LOGIN_STEPS = {
  mot_de_passe: 'Connexion (mot de passe)',
  double_authentification: 'Connexion (double authentification)',
  code_de_secours: 'Connexion (code de secours)',
} as const;
export type LoginStep = keyof typeof LOGIN_STEPS;

function beforeAfter(label: string, change: unknown): string | null {
  if (!change || typeof change !== 'object') return null;
  const { avant, apres } = change as { avant?: unknown; apres?: unknown };
  return `${label} : ${str(avant) || '—'} → ${str(apres) || '—'}`;
}

function describeRights(d: Details): string {
  const target = str(d.utilisateur);
  const suffix = target ? ` (${target})` : '';
  switch (d.action) {
    case 'creation':
      return `Création du compte${suffix} : rôle ${str(d.role) || '—'}`;
    case 'reinitialisation_2fa':
      return `Réinitialisation de la double authentification${suffix}`;
    default: {
      const parts = [beforeAfter('Rôle', d.role), beforeAfter('Compte', d.compte)].filter((p): p is string => p !== null);
      return `${parts.length > 0 ? parts.join(' ; ') : 'Modification des droits'}${suffix}`;
    }
  }
}

/** One French line saying what an entry read, exported or changed. */
export function describeEntry(kind: AccessLogKind, d: Details): string {
  switch (kind) {
    case 'lecture_personnes': {
      const label = PEOPLE_LABELS[str(d.personnes)] ?? 'Personnes';
      if (d.protegees === true) return `${label} protégées : ${plural(num(d.masquees), 'masquée', 'masquées')} (besoin d'en connaître)`;
      return `${label} (${num(d.nombre)})`;
    }
    case 'lecture_historique': {
      const masked = num(d.masquees) > 0 ? `, ${plural(num(d.masquees), 'masquée', 'masquées')}` : '';
      return `Historique : ${plural(num(d.entrees), 'entrée', 'entrées')}, dont ${num(d.personnes)} sur des personnes${masked}`;
    }
    case 'export':
      return d.objet === 'journal'
        ? `Export du journal des accès ${str(d.format)} : ${plural(num(d.lignes), 'ligne', 'lignes')}${d.tronque === true ? ' (limité)' : ''}`
        : `Export ${str(d.format)} : ${plural(num(d.lignes), 'ligne', 'lignes')}`;
    case 'droits':
      return describeRights(d);
    case 'connexion':
      return LOGIN_STEPS[str(d.etape) as LoginStep] ?? ACCESS_LOG_KIND_LABELS.connexion;
    case 'echec_connexion':
      return LOGIN_FAILURES[str(d.motif) as LoginFailure] ?? ACCESS_LOG_KIND_LABELS.echec_connexion;
    default:
      return ACCESS_LOG_KIND_LABELS[kind] ?? String(kind);
  }
}

/** The sentence of an alert, after the user's name: 'a consulté les personnes de 25 signalements en 10 minutes'. */
export function describeAlert(kind: AccessAlertKind, d: Details): string {
  if (kind === 'export_massif') {
    const share = Math.round(num(d.part) * 100);
    return `a exporté ${plural(num(d.lignes), 'signalement', 'signalements')} sur ${num(d.total)} (${share} %) en ${str(d.format)}`;
  }
  return `a consulté les personnes de ${plural(num(d.signalements), 'signalement', 'signalements')} en ${plural(num(d.fenetreMinutes), 'minute', 'minutes')}`;
}
