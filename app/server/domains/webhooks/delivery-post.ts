// One signed POST of a claimed delivery to its receiver (docs/decisions/0039-signed-webhooks.md): the address
// checked again (and, for an endpoint a partner registered, resolved to public addresses only: 0051), no
// redirect followed, the answer reduced to its status and a short excerpt.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isLoopbackHost } from '#shared/schemas/webhooks';
import { partnerAddressProblem, publicOnlyLookup, type EndpointOrigin } from './addresses';
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

/**
 * What an administrator reads of a failed POST. A name with several addresses fails with an AggregateError
 * whose own message is empty: its attempts' messages are given instead (« connect ECONNREFUSED … ; … »).
 */
export function describeError(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return 'Pas de réponse dans le délai imparti.';
  let message = error instanceof Error ? error.message : String(error);
  if (error instanceof AggregateError && message === '')
    message = error.errors.map((e: unknown) => (e instanceof Error ? e.message : String(e))).join(' ; ');
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error && cause.message && !message.includes(cause.message))
    message = `${message} (${cause.message})`;
  return message.slice(0, 500) || 'Erreur inconnue';
}

/** The address again, as the registration checked it: an endpoint stored otherwise is never called. */
function refusal(
  url: string,
  origin: EndpointOrigin,
  policy: Pick<WebhookPolicy, 'partnerAddresses'>,
): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Adresse invalide.';
  }
  if (origin === 'partenaire') {
    const problem = partnerAddressProblem(parsed, policy.partnerAddresses);
    if (problem) return `Adresse refusée : ${problem}`;
  }
  if (parsed.protocol === 'https:') return null;
  if (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)) return null;
  return 'Adresse refusée : HTTPS obligatoire (HTTP seulement vers la machine locale).';
}

/** The answer's status and at most RESPONSE_READ_BYTES of its body; the rest is let go, never stored. */
function send(
  url: URL,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
  lookup: LookupFunction | undefined,
): Promise<{ status: number; excerpt: string | null }> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        signal,
        // A fresh connection per POST, so every one goes through the lookup (and nothing idles after it).
        agent: false,
        ...(lookup ? { lookup } : {}),
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          res.destroy();
          const text = Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_EXCERPT_CHARS).trim();
          resolve({ status: res.statusCode ?? 0, excerpt: text === '' ? null : text });
        };
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.byteLength;
          if (size >= RESPONSE_READ_BYTES) finish();
        });
        res.on('end', finish);
        // The status is known: an answer cut off in its body is still that status.
        res.on('error', finish);
        res.on('close', finish);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** POSTs the delivery's payload signed with each of `secrets`, within the policy's timeout. */
export async function post(
  endpoint: { url: string; origin: EndpointOrigin },
  secrets: readonly string[],
  delivery: { eventId: string; payload: string },
  policy: Pick<WebhookPolicy, 'timeoutMs' | 'partnerAddresses' | 'resolve'>,
  at: Date,
  signal: AbortSignal,
): Promise<Outcome> {
  const refused = refusal(endpoint.url, endpoint.origin, policy);
  if (refused) return { delivered: false, status: null, error: refused, excerpt: null };
  const guarded = endpoint.origin === 'partenaire' && policy.partnerAddresses === 'public';
  try {
    // A redirect is an answer like another: not 2xx, so not delivered, and never followed.
    const { status, excerpt } = await send(
      new URL(endpoint.url),
      {
        'content-type': 'application/json',
        'user-agent': 'Signalements-Webhooks/1',
        ...signedHeaders(secrets, delivery.eventId, at, delivery.payload),
      },
      delivery.payload,
      AbortSignal.any([signal, AbortSignal.timeout(policy.timeoutMs)]),
      guarded ? publicOnlyLookup(policy.resolve) : undefined,
    );
    const delivered = status >= 200 && status < 300;
    return { delivered, status, error: delivered ? null : `Réponse HTTP ${status}.`, excerpt };
  } catch (error) {
    return { delivered: false, status: null, error: describeError(error), excerpt: null };
  }
}
