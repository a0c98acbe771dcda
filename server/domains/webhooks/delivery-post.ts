// One signed POST of a claimed delivery to its receiver (docs/decisions/0039-signed-webhooks.md): the address
// checked again, no redirect followed, the answer reduced to its status and a short excerpt.
import { isLoopbackHost } from '#shared/schemas/webhooks';
import type { WebhookPolicy } from './delivery';
import { signedHeaders } from './signing';

/** Characters of the receiver's answer kept to help an administrator (never more). */
export const RESPONSE_EXCERPT_CHARS = 200;
const RESPONSE_READ_BYTES = 1024;

/** What one POST gave: delivered (2xx), or why not. */
export interface Outcome {
  delivered: boolean;
  status: number | null;
  error: string | null;
  excerpt: string | null;
}

/** Reads at most RESPONSE_READ_BYTES of the answer, then lets the rest go: nothing more is stored. */
async function excerptOf(response: Response): Promise<string | null> {
  if (!response.body) return null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < RESPONSE_READ_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const text = Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_EXCERPT_CHARS).trim();
  return text === '' ? null : text;
}

function describeError(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return 'Pas de réponse dans le délai imparti.';
  let message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error && cause.message && !message.includes(cause.message))
    message = `${message} (${cause.message})`;
  return message.slice(0, 500) || 'Erreur inconnue';
}

/** The address again, as the registration checked it: an endpoint stored otherwise is never called. */
function refusal(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Adresse invalide.';
  }
  if (parsed.protocol === 'https:') return null;
  if (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)) return null;
  return 'Adresse refusée : HTTPS obligatoire (HTTP seulement vers la machine locale).';
}

/** POSTs the delivery's payload signed with each of `secrets`, within the policy's timeout. */
export async function post(
  url: string,
  secrets: readonly string[],
  delivery: { eventId: string; payload: string },
  policy: Pick<WebhookPolicy, 'timeoutMs'>,
  at: Date,
  signal: AbortSignal,
): Promise<Outcome> {
  const refused = refusal(url);
  if (refused) return { delivered: false, status: null, error: refused, excerpt: null };
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Signalements-Webhooks/1',
        ...signedHeaders(secrets, delivery.eventId, at, delivery.payload),
      },
      body: delivery.payload,
      // A redirect is an answer like another: not 2xx, so not delivered, and never followed.
      redirect: 'manual',
      signal: AbortSignal.any([signal, AbortSignal.timeout(policy.timeoutMs)]),
    });
    const excerpt = await excerptOf(response);
    const delivered = response.status >= 200 && response.status < 300;
    return {
      delivered,
      status: response.status,
      error: delivered ? null : `Réponse HTTP ${response.status}.`,
      excerpt,
    };
  } catch (error) {
    return { delivered: false, status: null, error: describeError(error), excerpt: null };
  }
}
