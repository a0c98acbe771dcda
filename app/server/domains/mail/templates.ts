// French e-mails of the accounts (set-up and reset links), in plain text and HTML.
import { BASE_PATH, PASSWORD_TOKEN_TTL_HOURS } from '#shared/constants';
import type { OutgoingMail } from './outbox';

/** The page where a link's holder chooses a password: {PUBLIC_URL}/admin/definir-mot-de-passe/{token}. */
export function passwordLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${BASE_PATH}/definir-mot-de-passe/${encodeURIComponent(token)}`;
}

/** Hides the token of every password link, once the message no longer needs it. */
export function redactPasswordLinks(body: string): string {
  return body.replace(/(\/definir-mot-de-passe\/)[A-Za-z0-9_%-]+/g, '$1***');
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const SIGNATURE = "L'équipe Signalements";

function html(paragraphs: string[], link: { href: string; label: string }, after: string[]): string {
  const p = (text: string) => `<p style="margin:0 0 16px">${escapeHtml(text)}</p>`;
  return [
    '<!doctype html>',
    '<html lang="fr"><head><meta charset="utf-8"></head>',
    '<body style="margin:0;padding:24px;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;color:#1f2937">',
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px;line-height:1.5">',
    ...paragraphs.map(p),
    `<p style="margin:24px 0"><a href="${escapeHtml(link.href)}" style="display:inline-block;background:#2563eb;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:bold">${escapeHtml(link.label)}</a></p>`,
    `<p style="margin:0 0 16px;font-size:13px;color:#6b7280">Si le bouton ne fonctionne pas, copiez cette adresse dans votre navigateur :<br><a href="${escapeHtml(link.href)}" style="color:#2563eb;word-break:break-all">${escapeHtml(link.href)}</a></p>`,
    ...after.map(p),
    `<p style="margin:24px 0 0;color:#6b7280">— ${escapeHtml(SIGNATURE)}</p>`,
    '</div></body></html>',
  ].join('\n');
}

const validity = `Ce lien est valable ${PASSWORD_TOKEN_TTL_HOURS} heures et ne peut servir qu'une seule fois. Passé ce délai, demandez un nouveau lien à un administrateur.`;

export interface PasswordMailInput {
  to: string;
  nomPrenom: string;
  link: string;
}

export function accountSetupMail({ to, nomPrenom, link }: PasswordMailInput): OutgoingMail {
  const intro = [
    `Bonjour ${nomPrenom},`,
    `Un compte a été créé pour vous sur le back-office Signalements (identifiant : ${to}).`,
    'Pour l’activer, choisissez votre mot de passe en ouvrant le lien ci-dessous.',
  ];
  const after = [validity, "Si vous n'attendiez pas ce message, vous pouvez l'ignorer."];
  return {
    kind: 'account-setup',
    to,
    subject: 'Signalements : activez votre compte',
    text: [...intro, link, ...after, `— ${SIGNATURE}`].join('\n\n') + '\n',
    html: html(intro, { href: link, label: 'Choisir mon mot de passe' }, after),
  };
}

export function passwordResetMail({ to, nomPrenom, link }: PasswordMailInput): OutgoingMail {
  const intro = [
    `Bonjour ${nomPrenom},`,
    `Un administrateur a demandé la réinitialisation du mot de passe de votre compte Signalements (${to}).`,
    'Pour choisir un nouveau mot de passe, ouvrez le lien ci-dessous.',
  ];
  const after = [
    validity,
    'Votre mot de passe actuel reste valable tant que vous n’en avez pas choisi un nouveau. Une fois le nouveau mot de passe enregistré, vos sessions ouvertes seront fermées.',
  ];
  return {
    kind: 'password-reset',
    to,
    subject: 'Signalements : réinitialisation de votre mot de passe',
    text: [...intro, link, ...after, `— ${SIGNATURE}`].join('\n\n') + '\n',
    html: html(intro, { href: link, label: 'Choisir un nouveau mot de passe' }, after),
  };
}

/** The access log of one user, as the administrator screen opens it. */
export function journalLink(publicUrl: string, userCode: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${BASE_PATH}/journal-acces?utilisateur=${encodeURIComponent(userCode)}`;
}

export interface AccessAlertMailInput {
  to: string;
  nomPrenom: string;
  /** The user who raised the alert. */
  user: { code: string; nomPrenom: string; email: string };
  /** The alert's French sentence, 'a consulté les personnes de 25 signalements en 10 minutes'. */
  message: string;
  link: string;
}

/** Tells an administrator that a user read or exported unusually much (decision 0015, "Alerts"). */
export function accessAlertMail({ to, nomPrenom, user, message, link }: AccessAlertMailInput): OutgoingMail {
  const intro = [
    `Bonjour ${nomPrenom},`,
    `Une alerte d'accès inhabituel a été levée : ${user.nomPrenom} (${user.email}, ${user.code}) ${message}.`,
    'Vérifiez si ces accès sont justifiés en consultant le journal des accès de cet utilisateur.',
  ];
  const after = [
    "L'alerte reste affichée sur le tableau de bord des administrateurs jusqu'à ce que l'un d'eux la marque comme vue.",
  ];
  return {
    kind: 'access-alert',
    to,
    subject: `Signalements : alerte d'accès inhabituel (${user.nomPrenom})`,
    text: [...intro, link, ...after, `— ${SIGNATURE}`].join('\n\n') + '\n',
    html: html(intro, { href: link, label: 'Ouvrir le journal des accès' }, after),
  };
}

/** A report's page in the back-office: {PUBLIC_URL}/admin/signalement/detail/{code}. */
export function reportLink(publicUrl: string, code: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${BASE_PATH}/signalement/detail/${encodeURIComponent(code)}`;
}

/** The list filtered on a user's reports (« Mes dossiers »). */
export function myCasesLink(publicUrl: string, userCode: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${BASE_PATH}/signalement/list?assigne=${encodeURIComponent(userCode)}`;
}

/** The codes a bulk assignment e-mail names, at most; the rest are counted (docs/decisions/0035). */
export const BULK_MAIL_CODES = 50;

/**
 * Tells a user that several reports were assigned to them at once (docs/decisions/0035-bulk-actions.md):
 * one e-mail per bulk action, their codes and a link to « Mes dossiers »; nothing else of the reports.
 */
export function bulkAssignmentMail(input: {
  to: string;
  nomPrenom: string;
  codes: readonly string[];
  by: string;
  link: string;
}): OutgoingMail {
  const { to, nomPrenom, codes, by, link } = input;
  if (codes.length === 1) return assignmentMail({ to, nomPrenom, code: codes[0]!, by, link });
  const shown = codes.slice(0, BULK_MAIL_CODES);
  const more = codes.length - shown.length;
  const intro = [
    `Bonjour ${nomPrenom},`,
    `${by} vous a assigné ${codes.length} signalements : ${shown.join(', ')}${more > 0 ? ` et ${more} autres` : ''}.`,
    'Vous pouvez désormais les modifier et consulter toutes leurs personnes. Ils apparaissent dans « Mes dossiers ».',
  ];
  const after = ["Si vous pensez qu'il s'agit d'une erreur, contactez la personne qui vous les a assignés."];
  return {
    kind: 'assignment',
    to,
    subject: `Signalements : ${codes.length} signalements vous sont assignés`,
    text: [...intro, link, ...after, `— ${SIGNATURE}`].join('\n\n') + '\n',
    html: html(intro, { href: link, label: 'Ouvrir « Mes dossiers »' }, after),
  };
}

export interface AssignmentMailInput {
  to: string;
  nomPrenom: string;
  /** The report's code; nothing else of the report leaves in the message (no people, no text). */
  code: string;
  /** Who assigned it. */
  by: string;
  link: string;
}

/** Tells a user that a report was assigned to them (docs/decisions/0028). */
export function assignmentMail({ to, nomPrenom, code, by, link }: AssignmentMailInput): OutgoingMail {
  const intro = [
    `Bonjour ${nomPrenom},`,
    `${by} vous a assigné le signalement ${code}.`,
    'Vous pouvez désormais le modifier et consulter toutes ses personnes. Il apparaît dans « Mes dossiers ».',
  ];
  const after = ["Si vous pensez qu'il s'agit d'une erreur, contactez la personne qui vous l'a assigné."];
  return {
    kind: 'assignment',
    to,
    subject: `Signalements : le signalement ${code} vous est assigné`,
    text: [...intro, link, ...after, `— ${SIGNATURE}`].join('\n\n') + '\n',
    html: html(intro, { href: link, label: 'Ouvrir le signalement' }, after),
  };
}

/** The codes a daily reminder names per list, at most; the rest are counted (docs/decisions/0036). */
export const DIGEST_MAIL_CODES = 50;

/** One report of an assignee's daily reminder: nothing of its people, only what names the report. */
export interface DigestReport {
  code: string;
  partenaire: string;
  niveau: string | null;
  /** Its due day, 'dd/MM/yyyy'. */
  echeance: string;
  /** Calendar days from today to the due day: negative when overdue. */
  days: number;
  link: string;
}

const dayCount = (n: number) => `${n} jour${n > 1 ? 's' : ''}`;

/** « En retard de 2 jours », « Échéance aujourd'hui », « Échéance dans 3 jours ». */
export function digestDueText(days: number): string {
  if (days < 0) return `En retard de ${dayCount(-days)}`;
  if (days === 0) return "Échéance aujourd'hui";
  return `Échéance dans ${dayCount(days)}`;
}

function digestLine(r: DigestReport): string {
  return `${r.code} — ${r.partenaire} — ${r.niveau ?? 'sans niveau'} — échéance le ${r.echeance} : ${digestDueText(r.days)}`;
}

/**
 * The daily reminder of an assignee (docs/decisions/0036-daily-reminders.md): their reports overdue or due
 * within three days, each with its code, partner, niveau and due day, and links to each report and to
 * « Mes dossiers ». Never a person's name or any text of the report.
 */
export function assigneeDigestMail(input: {
  to: string;
  nomPrenom: string;
  reports: readonly DigestReport[];
  myCases: string;
}): OutgoingMail {
  const { to, nomPrenom, reports, myCases } = input;
  const overdue = reports.filter((r) => r.days < 0).length;
  const shown = reports.slice(0, DIGEST_MAIL_CODES);
  const more = reports.length - shown.length;
  const summary =
    `Vous avez ${reports.length} signalement${reports.length > 1 ? 's' : ''} à traiter bientôt` +
    (overdue > 0 ? `, dont ${overdue} en retard.` : '.');
  const intro = [`Bonjour ${nomPrenom},`, summary];
  const moreLine = more > 0 ? [`… et ${more} autres, dans « Mes dossiers ».`] : [];
  const after = [
    'Vous pouvez désactiver ce récapitulatif dans la page Configuration, « Rappels quotidiens ».',
  ];
  const p = (text: string) => `<p style="margin:0 0 16px">${escapeHtml(text)}</p>`;
  const items = shown
    .map(
      (r) =>
        `<li style="margin:0 0 8px"><a href="${escapeHtml(r.link)}" style="color:#2563eb">${escapeHtml(r.code)}</a> — ${escapeHtml(r.partenaire)} — ${escapeHtml(r.niveau ?? 'sans niveau')} — échéance le ${escapeHtml(r.echeance)} : <strong>${escapeHtml(digestDueText(r.days))}</strong></li>`,
    )
    .join('\n');
  const body = html(intro, { href: myCases, label: 'Ouvrir « Mes dossiers »' }, [
    ...moreLine,
    ...after,
  ]).replace(
    `${p(summary)}`,
    `${p(summary)}\n<ul style="margin:0 0 16px;padding-left:20px">\n${items}\n</ul>`,
  );
  return {
    kind: 'digest',
    to,
    subject: `Signalements : récapitulatif du jour (${reports.length} à traiter${overdue > 0 ? `, ${overdue} en retard` : ''})`,
    text:
      [
        ...intro,
        shown.map((r) => `- ${digestLine(r)}\n  ${r.link}`).join('\n'),
        ...moreLine,
        `Mes dossiers : ${myCases}`,
        ...after,
        `— ${SIGNATURE}`,
      ].join('\n\n') + '\n',
    html: body,
  };
}

/** A list of an administrator's daily reminder: how many, the first codes, the filtered list. */
export interface DigestList {
  count: number;
  codes: readonly string[];
  link: string;
}

/**
 * The daily reminder of an administrator (docs/decisions/0036-daily-reminders.md): the open reports nobody
 * is assigned to and the overdue ones, as counts and at most DIGEST_MAIL_CODES codes each, with links to the
 * filtered list.
 */
export function adminDigestMail(input: {
  to: string;
  nomPrenom: string;
  unassigned: DigestList;
  overdue: DigestList;
}): OutgoingMail {
  const { to, nomPrenom, unassigned, overdue } = input;
  const section = (title: string, list: DigestList) => {
    const more = list.count - list.codes.length;
    return `${title} : ${list.count}${list.codes.length ? ` — ${list.codes.join(', ')}${more > 0 ? ` et ${more} autres` : ''}` : ''}.`;
  };
  const lines = [
    section('Signalements ouverts non assignés', unassigned),
    section('Signalements en retard', overdue),
  ];
  const text = [
    `Bonjour ${nomPrenom},`,
    'Voici le récapitulatif du jour.',
    `${lines[0]}\n${unassigned.link}`,
    `${lines[1]}\n${overdue.link}`,
    'Vous pouvez désactiver ce récapitulatif dans la page Configuration, « Rappels quotidiens ».',
    `— ${SIGNATURE}`,
  ];
  const link = unassigned.count > 0 ? unassigned : overdue;
  return {
    kind: 'digest',
    to,
    subject: `Signalements : récapitulatif du jour (${unassigned.count} non assignés, ${overdue.count} en retard)`,
    text: text.join('\n\n') + '\n',
    html: html(
      [`Bonjour ${nomPrenom},`, 'Voici le récapitulatif du jour.', ...lines],
      {
        href: link.link,
        label:
          unassigned.count > 0 ? 'Voir les signalements non assignés' : 'Voir les signalements en retard',
      },
      [
        `Signalements en retard : ${overdue.link}`,
        'Vous pouvez désactiver ce récapitulatif dans la page Configuration, « Rappels quotidiens ».',
      ],
    ),
  };
}
