// The Standard Webhooks signing secrets of the partners' endpoints as stored (docs/decisions/0039): encrypted
// with the data key, the additional data naming the column and the endpoint's id, so a secret copied onto
// another endpoint, into the other column or anywhere else does not open. Opened only to sign a delivery,
// to keep the former secret through a rotation, and to re-encrypt under a new data key.
import type { CipherContext, DataCipher } from './cipher';

export const WEBHOOK_SECRET = 'webhook_endpoints.secret' satisfies CipherContext;
export const WEBHOOK_PREVIOUS_SECRET = 'webhook_endpoints.previous_secret' satisfies CipherContext;

export type WebhookSecretColumn = typeof WEBHOOK_SECRET | typeof WEBHOOK_PREVIOUS_SECRET;

/** The stored form of an endpoint's secret, bound to the column and the endpoint. */
export const sealWebhookSecret = (
  cipher: DataCipher,
  column: WebhookSecretColumn,
  endpointId: number,
  secret: string,
): string => cipher.encrypt(secret, column, String(endpointId));

/** The secret in clear; throws DecryptError when it does not open (another key, altered, moved). */
export const openWebhookSecret = (
  cipher: DataCipher,
  column: WebhookSecretColumn,
  endpointId: number,
  stored: string,
): string => cipher.decrypt(stored, column, String(endpointId));
