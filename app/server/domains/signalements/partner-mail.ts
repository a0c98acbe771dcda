import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { notifyPartnerSchema } from '#shared/schemas/signalements';
import type { AppContext, Stamping } from '#server/context';
import { forbidden } from '#server/errors';
import { isAdmin } from '../auth/guards';
import type { SessionUser } from '../auth/session';
import { enqueueMail } from '../mail/outbox';
import { findEditable, findSignalement } from './access';
import { recordChange } from './history';
import { loadSignalements } from './loader';

const frDate = (iso: string, zone: string) =>
  new Intl.DateTimeFormat('fr-FR', { timeZone: zone }).format(new Date(iso));

/**
 * The default message to a report's partner: what was reported and where it stands, with the link
 * to the public summary. No names of people: the message leaves the unit.
 */
export async function defaultMailContent(
  { db, config, calendar }: Pick<AppContext, 'db' | 'config' | 'calendar'>,
  actor: SessionUser,
  code: string,
) {
  const report = await findSignalement(db, code);
  const [s] = await loadSignalements(db, [report.id], actor);
  const lines = [
    `Bonjour ${s!.partenaire.designation},`,
    '',
    `Nous vous informons du signalement ${s!.code}, reçu le ${frDate(s!.signalementAt, calendar.zone)}, qui concerne votre organisation.`,
    '',
    `Objet(s) : ${s!.subjects.map((x) => (x.code === 'OTHERS' && s!.autreObject ? s!.autreObject : x.designation)).join(', ')}`,
    `Canal de réception : ${s!.canalPrincipal?.designation ?? 'Non renseigné'}`,
    `Statut : ${s!.statut?.designation ?? 'Non renseigné'}`,
    `Niveau : ${s!.niveau?.designation ?? 'Non renseigné'}`,
    `État : ${s!.isTreated ? 'Traité' : 'En cours de traitement'}`,
  ];
  const place = [s!.region?.designation, s!.district?.designation, s!.commune?.designation]
    .filter(Boolean)
    .join(' / ');
  if (place) lines.push(`Localisation : ${place}`);
  lines.push(
    '',
    `Le résumé du signalement est consultable à l'adresse suivante : ${config.PUBLIC_URL.replace(/\/$/, '')}/admin/resume/${encodeURIComponent(s!.code)}`,
    '',
    'Cordialement,',
    actor.nomPrenom,
  );
  return { status: 'success' as const, content: lines.join('\n') };
}

export const PARTNER_MAIL_FORBIDDEN_MESSAGE =
  'Seul un administrateur peut envoyer ce message à une autre adresse que celle du partenaire.';

/**
 * Queues the e-mail in the outbox with its history entry, in one transaction. Creator or admin only;
 * a non-admin writes only to the partner's own address (docs/decisions/0015): the message leaves
 * from the application's sender, which must not carry any text to any address.
 */
export async function notifyPartner(
  ctx: Stamping,
  actor: SessionUser,
  code: string,
  input: z.output<typeof notifyPartnerSchema>,
): Promise<{ success: true }> {
  const { db } = ctx;
  await db.transaction(async (tx) => {
    const report = await findEditable(db, actor, code, tx);
    if (!isAdmin(actor)) {
      const p = db.t.partenaires;
      const [partner] = await tx.select({ email: p.email }).from(p).where(eq(p.id, report.partenaireId));
      if (!partner?.email || partner.email.trim().toLowerCase() !== input.email.trim().toLowerCase()) {
        throw forbidden(PARTNER_MAIL_FORBIDDEN_MESSAGE);
      }
    }
    await enqueueMail(db, {
      kind: 'partner-notification',
      to: input.email,
      subject: `Signalement ${report.code}`,
      text: input.content,
    });
    await recordChange(ctx, tx, report.id, actor, 'notification', { email: { from: null, to: input.email } });
  });
  return { success: true };
}
