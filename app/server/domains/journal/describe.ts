// The French words of the access log: one sentence per entry and per alert, for the screen, the
// xlsx export and the alert e-mails. Details are JSON written by record.ts; unknown shapes fall back
// to the kind's label rather than failing a page of the log.
import type { AccessAlertKind, AccessLogKind } from '#shared/constants';
import { ACCESS_LOG_KIND_LABELS } from '#shared/dto/journal';
import { formatNumber } from '#shared/number';

type Details = Record<string, unknown>;

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const str = (v: unknown) => (typeof v === 'string' ? v : '');
/** A count with fr-FR thousands separators, as the client shows its own (shared/number.ts): « 12 345 ». */
const count = (v: unknown) => formatNumber(num(v));
const plural = (n: number, one: string, many: string) => `${formatNumber(n)} ${n > 1 ? many : one}`;

const PEOPLE_LABELS: Record<string, string> = {
  auteurs: 'Auteurs présumés',
  sources: 'Sources',
  victimes: 'Victimes',
};

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
    case 'assignation':
      return `Assignation du signalement${suffix}`;
    case 'desassignation':
      return `Fin d'assignation du signalement${suffix}${d.motif === 'compte_desactive' ? ' : compte désactivé' : ''}`;
    default: {
      const parts = [beforeAfter('Rôle', d.role), beforeAfter('Compte', d.compte)].filter(
        (p): p is string => p !== null,
      );
      return `${parts.length > 0 ? parts.join(' ; ') : 'Modification des droits'}${suffix}`;
    }
  }
}

/** A change of a setting (docs/decisions/0032): « Délai de traitement Critique : 7 → 10 jours ». */
function describeSetting(d: Details): string {
  if (d.parametre === 'recapitulatif_quotidien') {
    const state = (value: unknown) => (value === true ? 'activé' : 'désactivé');
    return `Récapitulatif quotidien : ${state(d.avant)} → ${state(d.apres)}`;
  }
  const days = (value: unknown) =>
    typeof value === 'number' ? `${formatNumber(value)} jours` : 'aucun délai';
  return `Délai de traitement ${str(d.niveau)} : ${days(d.avant)} → ${days(d.apres)}`;
}

/** A logged search (logged-text.ts): « recherche (12 caractères) », or the report code searched. */
function describeSearch(r: unknown): string | null {
  if (!r || typeof r !== 'object') return null;
  const search = r as { type?: unknown; code?: unknown; longueur?: unknown };
  if (search.type === 'code') return `recherche du signalement ${str(search.code)}`;
  return `recherche (${plural(num(search.longueur), 'caractère', 'caractères')})`;
}

function describeExport(d: Details): string {
  if (d.objet === 'journal') {
    return `Export du journal des accès ${str(d.format)} : ${plural(num(d.lignes), 'ligne', 'lignes')}${d.tronque === true ? ' (limité)' : ''}`;
  }
  const filtres = d.filtres && typeof d.filtres === 'object' ? (d.filtres as Details) : {};
  // Older entries held the search text; it is never shown (the migration removed it).
  const search = describeSearch(filtres.recherche);
  const notes = d.notesInternes === true ? ', avec les notes internes' : '';
  return `Export ${str(d.format)} : ${plural(num(d.lignes), 'ligne', 'lignes')}${search ? `, ${search}` : ''}${notes}`;
}

/** What was done to an internal note, as stored in `details.action`. */
const NOTE_ACTIONS: Record<string, string> = {
  ajout: 'Ajout',
  modification: 'Modification',
  suppression: 'Suppression',
};

const BULK_ACTIONS: Record<string, string> = {
  assigner: 'assignation',
  desassigner: "fin d'assignation",
  statut: 'changement de statut',
  niveau: 'changement de niveau',
};

/** A bulk action (docs/decisions/0035-bulk-actions.md): what, on which selection, how many changed. */
function describeBulk(d: Details): string {
  const action = BULK_ACTIONS[str(d.action)] ?? 'action';
  const target = str(d.utilisateur) || str(d.statut) || str(d.niveau);
  const selection =
    d.selection === 'filtre'
      ? `les ${plural(num(d.selectionnes), 'signalement', 'signalements')} d'un filtre`
      : plural(num(d.selectionnes), 'signalement choisi', 'signalements choisis');
  return `Action groupée (${action}${target ? ` : ${target}` : ''}) sur ${selection} : ${plural(num(d.modifies), 'modifié', 'modifiés')}`;
}

function describeLoginFailure(d: Details): string {
  const label = LOGIN_FAILURES[str(d.motif) as LoginFailure] ?? ACCESS_LOG_KIND_LABELS.echec_connexion;
  if (num(d.refus) > 0) {
    const from = d.autresAdresses === true ? ' (autres adresses)' : '';
    return `${label} : ${plural(num(d.refus), 'autre connexion refusée', 'autres connexions refusées')} en ${count(d.fenetreMinutes)} minutes${from}`;
  }
  return str(d.empreinte) ? `${label} (e-mail saisi, empreinte ${str(d.empreinte)})` : label;
}

/** A partner API token created, revoked or used (docs/decisions/0038-partner-api-tokens.md). */
function describeToken(d: Details): string {
  const jeton = `« ${str(d.jeton)} » (${str(d.partenaire) || '—'})`;
  switch (d.action) {
    case 'creation':
      return `Création du jeton d'API ${jeton}`;
    case 'revocation':
      return `Révocation du jeton d'API ${jeton}`;
    default:
      return `Utilisation du jeton d'API ${jeton} : ${str(d.methode)} ${str(d.route)}`;
  }
}

/** What one part of a print held: its number, or how many were withheld (need to know). */
function printedPart(d: unknown, one: string, many: string): string {
  const part = d && typeof d === 'object' ? (d as Details) : {};
  if (num(part.masquees) > 0)
    return `${many} protégées : ${plural(num(part.masquees), 'masquée', 'masquées')}`;
  const n = num(part.nombre);
  return `${n > 1 ? many : one} (${formatNumber(n)})`;
}

/**
 * A print of a report (docs/decisions/0043-print-view.md): what it held, people first; « sans les notes
 * internes » when they were not asked for.
 */
function describePrint(d: Details): string {
  const parts = [
    printedPart(d.auteurs, 'Auteur présumé', 'Auteurs présumés'),
    printedPart(d.sources, 'Source', 'Sources'),
    printedPart(d.victimes, 'Victime', 'Victimes'),
    d.notes && typeof d.notes === 'object'
      ? printedPart(d.notes, 'Note interne', 'Notes internes')
      : 'sans les notes internes',
    printedPart(d.piecesJointes, 'Pièce jointe', 'Pièces jointes'),
  ];
  if (d.historique && typeof d.historique === 'object')
    parts.push(`historique : ${plural(num((d.historique as Details).entrees), 'entrée', 'entrées')}`);
  return `Impression du signalement : ${parts.join(', ')}`;
}

/** One French line saying what an entry read, exported or changed. */
export function describeEntry(kind: AccessLogKind, d: Details): string {
  switch (kind) {
    case 'lecture_personnes': {
      const label = PEOPLE_LABELS[str(d.personnes)] ?? 'Personnes';
      if (d.protegees === true)
        return `${label} protégées : ${plural(num(d.masquees), 'masquée', 'masquées')} (besoin d'en connaître)`;
      return `${label} (${count(d.nombre)})`;
    }
    case 'lecture_historique': {
      const masked = num(d.masquees) > 0 ? `, ${plural(num(d.masquees), 'masquée', 'masquées')}` : '';
      return `Historique : ${plural(num(d.entrees), 'entrée', 'entrées')}, dont ${count(d.personnes)} sur des personnes${masked}`;
    }
    case 'lecture_notes':
      if (d.protegees === true)
        return `Notes internes protégées : ${plural(num(d.masquees), 'masquée', 'masquées')} (besoin d'en connaître)`;
      return `Notes internes (${count(d.nombre)})`;
    case 'ecriture_notes':
      return `${NOTE_ACTIONS[str(d.action)] ?? 'Écriture'} de la note interne ${str(d.note) || '—'}`;
    case 'lecture_pieces_jointes':
      if (d.protegees === true)
        return `Pièces jointes protégées : ${plural(num(d.masquees), 'masquée', 'masquées')} (besoin d'en connaître)`;
      if (typeof d.telechargement === 'string')
        return `Téléchargement de la pièce jointe ${d.telechargement}`;
      return `Liste des pièces jointes (${count(d.nombre)})`;
    case 'export':
      return describeExport(d);
    case 'droits':
      return describeRights(d);
    case 'connexion':
      return LOGIN_STEPS[str(d.etape) as LoginStep] ?? ACCESS_LOG_KIND_LABELS.connexion;
    case 'echec_connexion':
      return describeLoginFailure(d);
    case 'parametres':
      return describeSetting(d);
    case 'purge':
      return `Purge des entrées antérieures au ${str(d.avant).split('-').reverse().join('/')} (conservation ${count(d.conservationJours)} jours) : ${plural(num(d.supprimees), 'entrée supprimée', 'entrées supprimées')}`;
    case 'action_groupee':
      return describeBulk(d);
    case 'jeton_api':
      return describeToken(d);
    case 'impression':
      return describePrint(d);
    default:
      return ACCESS_LOG_KIND_LABELS[kind] ?? String(kind);
  }
}

/** The sentence of an alert, after the user's name: 'a consulté les personnes de 25 signalements en 10 minutes'. */
export function describeAlert(kind: AccessAlertKind, d: Details): string {
  const exports = num(d.exports);
  const inDay = exports > 1 ? ` en ${formatNumber(exports)} exports dans la journée` : '';
  switch (kind) {
    case 'export_massif': {
      const share = Math.round(num(d.part) * 100);
      return `a exporté ${plural(num(d.lignes), 'signalement', 'signalements')} sur ${count(d.total)} (${share} %)${inDay || ` en ${str(d.format)}`}`;
    }
    case 'export_quotidien':
      return `a exporté ${plural(num(d.lignes), 'ligne', 'lignes')} de signalements${inDay || ' dans la journée'} (seuil : ${count(d.seuil)})`;
    case 'lecture_quotidienne':
      return `a consulté les personnes de ${plural(num(d.signalements), 'signalement', 'signalements')} dans la journée (seuil : ${count(d.seuil)})`;
    default:
      return `a consulté les personnes de ${plural(num(d.signalements), 'signalement', 'signalements')} en ${plural(num(d.fenetreMinutes), 'minute', 'minutes')}`;
  }
}
