// French e-mails about a user's own second factor (decision 0016): wrong codes that ended a session, and a
// reset by an administrator. Sent through the outbox, in the transaction of the event they describe.
import type { BusinessCalendar } from '#shared/calendar';
import { escapeHtml } from '../mail/templates';
import type { OutgoingMail } from '../mail/outbox';

const SIGNATURE = "L'équipe Signalements";

/** 'le 25/11/2026 à 12:54 (heure de Madagascar)' */
function when(at: Date, calendar: BusinessCalendar): string {
  const [day, time] = calendar.wallClock(at).toISOString().slice(0, 16).split('T');
  return `le ${day!.split('-').reverse().join('/')} à ${time} (${calendar.label})`;
}

function mail(kind: OutgoingMail['kind'], to: string, subject: string, paragraphs: string[]): OutgoingMail {
  const body = [...paragraphs, `— ${SIGNATURE}`];
  return {
    kind,
    to,
    subject,
    text: body.join('\n\n') + '\n',
    html: [
      '<!doctype html>',
      '<html lang="fr"><head><meta charset="utf-8"></head>',
      '<body style="margin:0;padding:24px;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;color:#1f2937">',
      '<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px;line-height:1.5">',
      ...body.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`),
      '</div></body></html>',
    ].join('\n'),
  };
}

export interface GuessesMailInput {
  to: string;
  nomPrenom: string;
  /** The client address that sent the wrong codes. */
  address: string;
  at: Date;
  /** The business calendar the time is written in. */
  calendar: BusinessCalendar;
  wrongCodes: number;
}

/** Someone who knows the password sent wrong codes: their session was ended; the owner must act. */
export function twoFactorGuessesMail({
  to,
  nomPrenom,
  address,
  at,
  calendar,
  wrongCodes,
}: GuessesMailInput): OutgoingMail {
  return mail(
    'two-factor-guesses',
    to,
    'Signalements : codes de double authentification incorrects sur votre compte',
    [
      `Bonjour ${nomPrenom},`,
      `${wrongCodes} codes de double authentification incorrects ont été saisis pour votre compte Signalements (${to}) ${when(at, calendar)}, depuis l'adresse ${address}, après un mot de passe correct. Cette session a été fermée.`,
      "Si ce n'était pas vous, quelqu'un connaît votre mot de passe : changez-le dès que possible et prévenez un administrateur. Votre compte reste accessible avec votre mot de passe et votre code.",
    ],
  );
}

export interface ResetMailInput {
  to: string;
  nomPrenom: string;
  /** The administrator who reset the factor. */
  by: string;
  at: Date;
  /** The business calendar the time is written in. */
  calendar: BusinessCalendar;
}

/** An administrator removed the user's second factor (lost phone): the user learns it at once. */
export function twoFactorResetMail({ to, nomPrenom, by, at, calendar }: ResetMailInput): OutgoingMail {
  return mail('two-factor-reset', to, 'Signalements : votre double authentification a été réinitialisée', [
    `Bonjour ${nomPrenom},`,
    `${by}, administrateur, a réinitialisé la double authentification de votre compte Signalements (${to}) ${when(at, calendar)}. Vos sessions ouvertes ont été fermées ; à votre prochaine connexion, vous activerez à nouveau la double authentification.`,
    "Si vous n'avez pas demandé cette réinitialisation, prévenez immédiatement un autre administrateur.",
  ]);
}
