// Input schemas of the partners' webhook endpoints (docs/decisions/0039-signed-webhooks.md), shared by the
// server and the « Webhooks » form. The address is only parsed here: no name is resolved at registration.
import { z } from 'zod';
import './zod-french';

export const WEBHOOK_URL_MAX_LENGTH = 2000;

export const WEBHOOK_MESSAGES = {
  urlRequired: "L'adresse du point de réception est obligatoire.",
  urlTooLong: `L'adresse ne doit pas dépasser ${WEBHOOK_URL_MAX_LENGTH} caractères.`,
  urlInvalid: "L'adresse n'est pas une URL valide (exemple : https://partenaire.example.mg/webhooks).",
  urlScheme: "L'adresse doit commencer par https://.",
  urlHttpNotLoopback:
    "HTTP n'est accepté que vers la machine locale (127.0.0.1 ou [::1]) ; utilisez une adresse https://.",
  urlCredentials: "L'adresse ne doit contenir ni identifiant ni mot de passe.",
  urlFragment: "L'adresse ne doit pas contenir de fragment (#…).",
  partnerRequired: 'Choisissez un partenaire.',
} as const;

/** 127.0.0.0/8 or ::1, as the URL parser writes them (it already turned 127.1 or 0x7f.0.0.1 into 127.0.0.1). */
export function isLoopbackHost(hostname: string): boolean {
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname) || hostname === '[::1]';
}

/**
 * Why an endpoint address is refused (a French message), or null when it is acceptable: HTTPS, or HTTP to
 * a loopback address only; no credentials, no fragment. The delivery checks it again before every POST.
 */
export function webhookUrlProblem(raw: string): string | null {
  if (raw.length > WEBHOOK_URL_MAX_LENGTH) return WEBHOOK_MESSAGES.urlTooLong;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return WEBHOOK_MESSAGES.urlInvalid;
  }
  if (url.protocol === 'http:') {
    if (!isLoopbackHost(url.hostname)) return WEBHOOK_MESSAGES.urlHttpNotLoopback;
  } else if (url.protocol !== 'https:') {
    return WEBHOOK_MESSAGES.urlScheme;
  }
  if (url.hostname === '') return WEBHOOK_MESSAGES.urlInvalid;
  if (url.username !== '' || url.password !== '') return WEBHOOK_MESSAGES.urlCredentials;
  if (url.hash !== '' || raw.includes('#')) return WEBHOOK_MESSAGES.urlFragment;
  return null;
}

export const webhookUrlField = z
  .string({ error: WEBHOOK_MESSAGES.urlRequired })
  .trim()
  .min(1, WEBHOOK_MESSAGES.urlRequired)
  .superRefine((value, ctx) => {
    const problem = webhookUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  // Stored as the parser writes it, so the screen shows what the delivery will call.
  .transform((value) => new URL(value).href);

export const webhookEndpointInputSchema = z.object({
  partenaire: z
    .string({ error: WEBHOOK_MESSAGES.partnerRequired })
    .trim()
    .min(1, WEBHOOK_MESSAGES.partnerRequired)
    .max(64),
  url: webhookUrlField,
});

/** What a partner's token sends to register an endpoint (POST /api/webhooks): its address only. */
export const partnerWebhookInputSchema = z.object({ url: webhookUrlField }).strict();

// At most PostgreSQL's integer: a larger id is refused there (a 500) while SQLite just finds nothing.
/**
 * Hours the former signing secret keeps signing after « Renouveler le secret » (docs/decisions/0039): every
 * delivery carries both signatures meanwhile, so the partner installs the new one without a gap.
 */
export const WEBHOOK_SECRET_GRACE_HOURS = 24;

export const webhookIdSchema = z.coerce
  .number({ error: 'Identifiant invalide.' })
  .int('Identifiant invalide.')
  .positive('Identifiant invalide.')
  .max(2_147_483_647, 'Identifiant invalide.');

export const webhookDeliveryStates = ['pending', 'delivered', 'dead'] as const;

export const webhookDeliveriesInputSchema = z.object({
  endpoint: webhookIdSchema.optional(),
  state: z.enum(webhookDeliveryStates, { error: 'État inconnu.' }).optional(),
});
