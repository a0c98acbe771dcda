// Idempotent creates (docs/decisions/0020-idempotent-creates.md). A POST that creates a report,
// a person, a partner, a project or a user may carry an `Idempotency-Key` header, one per form submission,
// reused when the client retries it. The first answer is stored with the created row, in the same
// transaction; a repeat of the same request by the same user returns that answer and creates nothing. A
// crash between the commit and the reply leaves both the row and the answer: the retry gets the answer.
import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import { z } from 'zod';
import { cipherOf, type Services } from '#server/context';
import { DomainError } from '#server/errors';
import { SESSION_LIFETIME_MS, type SessionUser } from '../auth/session';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/**
 * How long a key is remembered: a session's lifetime. A retry in a tab comes within minutes, but the offline
 * outbox (docs/decisions/0048-offline-store.md) may resend a create whose answer was lost days later, when the
 * link returns; it cannot wait longer than its session, whose end wipes it. A shorter memory would create
 * that report twice.
 */
export const IDEMPOTENCY_TTL_MS = SESSION_LIFETIME_MS;
/** The header's value: 8 to 128 letters, digits and `- _ . :` (a list, when the header came twice, fails). */
const idempotencyKeySchema = z.string().regex(/^[A-Za-z0-9_.:-]{8,128}$/);

export const IDEMPOTENCY_MESSAGES = {
  invalidKey:
    'En-tête Idempotency-Key invalide : 8 à 128 caractères parmi les lettres, les chiffres et « - _ . : ».',
  reused:
    'Cette clé Idempotency-Key a déjà servi pour une autre requête : envoyez une nouvelle clé pour une nouvelle saisie.',
  batched: 'Une requête avec Idempotency-Key ne peut contenir qu’une seule opération.',
} as const;

export interface IdempotentCall {
  /** The header's value, if any (a list when it was sent twice). */
  key: string | string[] | undefined;
  user: SessionUser;
  /** The door and the operation: 'POST /api/sources', 'sources.create'… Two doors answer differently. */
  scope: string;
  /** The validated input: a repeat must send the same. */
  input: unknown;
}

/**
 * What a replay answers, decided today (decision 0020): the stored answer was right for the caller's rights
 * at the create; since then the caller may have been demoted, or the report made anonymous. Each create
 * says how its answer is read again: through the same rules and the same access-log entry as a fresh read
 * of what it holds (a person), or the stored answer itself when it holds nothing a right protects.
 */
export type Reread<T> = (stored: T) => Promise<T>;

/** For the answers that hold nothing a right protects (a report's code, a partner, a project). */
export const storedAnswer = <T>(stored: T): Promise<T> => Promise.resolve(stored);

export interface IdempotentResult<T> {
  result: T;
  /** True when this answer is the stored one of an earlier request. */
  replayed: boolean;
}

/** JSON with object keys sorted, so that the same input always hashes the same. */
function canonical(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

function hashOf(scope: string, input: unknown): string {
  return createHash('sha256').update(scope).update('\n').update(canonical(input)).digest('base64url');
}

/** The header's key, or undefined without one; a malformed key is refused (400). */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const parsed = idempotencyKeySchema.safeParse(header);
  if (!parsed.success) throw new DomainError('invalid', IDEMPOTENCY_MESSAGES.invalidKey);
  return parsed.data;
}

interface StoredAnswer {
  scope: string;
  response: string;
  createdAt: Date;
}

/**
 * What `response` holds, encrypted: the request's hash and the answer. The hash stays inside the
 * encryption: in clear, a hash of an input that names a source would let whoever holds a copy of the
 * database confirm a guessed name or telephone number.
 */
interface Sealed {
  h: string;
  r: unknown;
}

/**
 * Runs `create` once per (user, key): inside one transaction with the stored answer. `create` must do all
 * its writes through db.transaction (which joins this one) and return plain JSON data (it is what the
 * client receives, now and on a repeat).
 */
export async function idempotent<T>(
  ctx: Services,
  call: IdempotentCall,
  create: () => Promise<T>,
  reread: Reread<T>,
): Promise<IdempotentResult<T>> {
  const key = idempotencyKeyOf(call.key);
  if (key === undefined) return { result: await create(), replayed: false };
  const outcome = await runOnce(ctx, call, key, create);
  // Outside the create's transaction: the reread logs like a read, and may refuse.
  return outcome.replayed ? { result: await reread(outcome.result), replayed: true } : outcome;
}

async function runOnce<T>(
  ctx: Services,
  call: IdempotentCall,
  key: string,
  create: () => Promise<T>,
): Promise<IdempotentResult<T>> {
  const { db } = ctx;
  const requestHash = hashOf(call.scope, call.input);
  const t = db.t.idempotencyKeys;
  const cipher = cipherOf(ctx);
  const where = and(eq(t.userId, call.user.id), eq(t.key, key));
  const fresh = (row: StoredAnswer | undefined) =>
    row && row.createdAt.getTime() > Date.now() - IDEMPOTENCY_TTL_MS;
  const replay = (row: StoredAnswer): IdempotentResult<T> => {
    const sealed =
      row.scope === call.scope
        ? (JSON.parse(cipher.decrypt(row.response, 'idempotency_keys.response')) as Sealed)
        : null;
    if (!sealed || sealed.h !== requestHash) throw new DomainError('conflict', IDEMPOTENCY_MESSAGES.reused);
    return { result: sealed.r as T, replayed: true };
  };
  const columns = { scope: t.scope, response: t.response, createdAt: t.createdAt };

  const [earlier] = await db.read.select(columns).from(t).where(where);
  if (fresh(earlier)) return replay(earlier!);
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        // SQLite: transactions run one at a time, so a first attempt that was still running above has
        // committed by now. PostgreSQL: the insert below waits for it and fails as a duplicate.
        const [inside] = await tx.select(columns).from(t).where(where);
        if (fresh(inside)) return replay(inside!);
        // Forgotten keys go, this one included if it is older than a day.
        await tx.delete(t).where(lt(t.createdAt, new Date(Date.now() - IDEMPOTENCY_TTL_MS)));
        const result = await create();
        // JSON.parse(JSON.stringify()) is what the client receives: a repeat gets exactly that.
        const sealed: Sealed = { h: requestHash, r: result ?? null };
        const response = cipher.encrypt(JSON.stringify(sealed), 'idempotency_keys.response');
        await tx.insert(t).values({ userId: call.user.id, key, scope: call.scope, response });
        return { result, replayed: false };
      });
    } catch (error) {
      if (!db.dialect.isUniqueViolation(error)) throw error;
      const [winner] = await db.read.select(columns).from(t).where(where);
      if (winner) return replay(winner);
      // Another unique value taken meanwhile by a concurrent write: on PostgreSQL nothing more can run
      // inside this aborted transaction, so the whole create runs again.
      if (attempt >= 3) throw error;
    }
  }
}
