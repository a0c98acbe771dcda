// Standard Webhooks signatures (https://www.standardwebhooks.com, docs/decisions/0039-signed-webhooks.md):
// the secret is `whsec_` + base64 of random bytes; each message is signed with HMAC-SHA256, keyed by the
// decoded bytes, over "{webhook-id}.{webhook-timestamp}.{body}", sent as "v1,<base64 signature>".
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/** 32 random bytes: inside the specification's 24 to 64. */
const SECRET_BYTES = 32;

export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

function keyOf(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('webhook secret without its whsec_ prefix');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/** The `webhook-signature` header of a message: "v1," and the base64 HMAC-SHA256 of id.timestamp.body. */
export function signatureHeader(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret))
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

/**
 * The three headers of a signed message sent at `at`, signed with each secret (the current one first, then
 * the former one during its grace period): Standard Webhooks separates the `v1,<signature>` entries with a
 * space, and a receiver accepts the message when any of them matches its secret.
 */
export function signedHeaders(
  secrets: readonly string[],
  id: string,
  at: Date,
  body: string,
): Record<string, string> {
  if (secrets.length === 0) throw new Error('no secret to sign the webhook with');
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => signatureHeader(secret, id, timestamp, body)).join(' '),
  };
}
