// The secrets that sign a webhook (docs/decisions/0039-signed-webhooks.md): decrypted here only, at signing
// time, with the former one kept for its grace period and erased once that is over.
import { and, eq, isNotNull, lte } from 'drizzle-orm';
import { DecryptError } from '#server/crypto/cipher';
import { openWebhookSecret, WEBHOOK_PREVIOUS_SECRET, WEBHOOK_SECRET } from '#server/crypto/webhook-secrets';
import type { Database } from '#server/db/client';
import type { DeliveryContext } from './delivery';

export const UNREADABLE_SECRET =
  'Secret de signature illisible (clé de chiffrement incorrecte ou valeur altérée) : renouvelez le secret.';

/** Erases the former secrets whose grace period is over (also done at each signing and each rotation). */
export async function eraseExpiredWebhookSecrets(db: Database, now: Date): Promise<number> {
  const e = db.t.webhookEndpoints;
  const erased = await db.transaction((tx) =>
    tx
      .update(e)
      .set({ previousSecret: null, previousSecretExpiresAt: null })
      .where(and(isNotNull(e.previousSecretExpiresAt), lte(e.previousSecretExpiresAt, now)))
      .returning({ id: e.id }),
  );
  return erased.length;
}

/**
 * The secrets that sign a message sent now: the current one, then the former one while its grace period
 * lasts. A former secret past its expiry is erased at once; one that does not open is left out (logged
 * without any value). Null when the current one does not open: nothing can be signed.
 */
export async function signingSecrets(
  db: Database,
  endpointId: number,
  stored: { secret: string; previousSecret: string | null; previousSecretExpiresAt: Date | null },
  now: Date,
  context: DeliveryContext,
): Promise<string[] | null> {
  const open = (column: typeof WEBHOOK_SECRET | typeof WEBHOOK_PREVIOUS_SECRET, value: string) => {
    try {
      return openWebhookSecret(context.cipher, column, endpointId, value);
    } catch (error) {
      if (!(error instanceof DecryptError)) throw error;
      context.log.warn({ endpoint: endpointId, column }, 'secret de webhook illisible');
      return null;
    }
  };
  const current = open(WEBHOOK_SECRET, stored.secret);
  if (current === null) return null;
  if (stored.previousSecret === null) return [current];
  const expiresAt = stored.previousSecretExpiresAt;
  if (expiresAt === null || expiresAt.getTime() <= now.getTime()) {
    const e = db.t.webhookEndpoints;
    await db.transaction((tx) =>
      tx
        .update(e)
        .set({ previousSecret: null, previousSecretExpiresAt: null })
        .where(and(eq(e.id, endpointId), eq(e.previousSecret, stored.previousSecret!))),
    );
    return [current];
  }
  const previous = open(WEBHOOK_PREVIOUS_SECRET, stored.previousSecret);
  return previous === null ? [current] : [current, previous];
}
