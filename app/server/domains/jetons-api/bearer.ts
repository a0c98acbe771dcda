// A request authenticated by a partner API token (docs/decisions/0038-partner-api-tokens.md): the token is
// looked up by its public id, its secret compared in constant time with the stored SHA-256; then each use is
// counted against the token's own limit, written in the access log and marks the token used, in one
// transaction taken before the work. The count is one atomic upsert in rate_windows (as the public summary's,
// server/http/public-limit.ts), so several servers on one PostgreSQL share it.
import { timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { ApiTokenScope } from '#shared/constants';
import type { Auth } from '#server/context';
import type { Database } from '#server/db/client';
import { countInWindow, retryAfterSeconds } from '#server/db/rate-windows';
import { DomainError } from '#server/errors';
import { recordAccess } from '../journal/record';
import { secretHashOf, TOKEN_FORMAT } from './service';

/** What the rest of the request knows of the token that sent it. */
export interface TokenCaller {
  id: number;
  publicId: string;
  nom: string;
  partenaireId: number;
  partenaireCode: string;
  scopes: ApiTokenScope[];
}

export const RATE_WINDOW_MS = 60_000;
/** A token's last use is written at most this often (a busy token would otherwise write it on every request). */
export const LAST_USE_EVERY_MS = 60_000;

export const BEARER_MESSAGES = {
  malformed:
    "En-tête Authorization invalide : envoyez « Authorization: Bearer sig_… » avec le jeton d'API reçu.",
  unknown: "Jeton d'API inconnu ou invalide.",
  revoked: "Ce jeton d'API a été révoqué.",
  expired: "Ce jeton d'API a expiré. Demandez-en un nouveau à un administrateur.",
  bothCredentials:
    "Requête refusée : envoyez soit le cookie de session, soit le jeton d'API (Authorization: Bearer), pas les deux.",
  notForTrpc: "Un jeton d'API n'ouvre que les routes REST /api de son périmètre.",
  outOfScope: "Ce jeton d'API n'autorise pas cette opération.",
  tokenOnly:
    "Cette route est réservée aux jetons d'API des partenaires (Authorization: Bearer) ; le personnel gère les webhooks dans Administration › Webhooks.",
  tooManyRequests: "Trop de requêtes pour ce jeton d'API. Veuillez patienter avant de réessayer.",
} as const;

/** A 401 that names the scheme, as RFC 6750 §3 asks (error handler: server/http/errors.ts). */
const unauthorized = (message: string, error: 'invalid_request' | 'invalid_token') =>
  new DomainError('unauthenticated', message, {
    wwwAuthenticate: `Bearer realm="api", error="${error}"`,
  });

/** `Bearer <token>` (the scheme in any case, one or more spaces, RFC 6750 §2.1), else null. */
export function bearerOf(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = /^bearer +(\S+) *$/i.exec(header);
  return match ? match[1]! : null;
}

/** The caller of a token, or a 401: malformed, unknown (or wrong secret), revoked, expired. */
export async function authenticateToken(
  db: Database,
  header: string,
  address: string,
  now = Date.now(),
): Promise<Auth & { jeton: TokenCaller }> {
  const token = bearerOf(header);
  if (token === null) throw unauthorized(BEARER_MESSAGES.malformed, 'invalid_request');
  const parts = TOKEN_FORMAT.exec(token);
  if (!parts) throw unauthorized(BEARER_MESSAGES.unknown, 'invalid_token');
  const [, publicId, secret] = parts as unknown as [string, string, string];
  const { jetonsApi: j, partenaires: p, utilisateurs: u, utilisateurRoles: r } = db.t;
  const [row] = await db.read
    .select({
      id: j.id,
      secretHash: j.secretHash,
      nom: j.nom,
      scopes: j.scopes,
      expiresAt: j.expiresAt,
      revokedAt: j.revokedAt,
      partenaireId: j.partenaireId,
      partenaireCode: p.code,
      user: { id: u.id, code: u.code, email: u.email, nomPrenom: u.nomPrenom },
      role: { code: r.code, designation: r.designation },
    })
    .from(j)
    .innerJoin(p, eq(p.id, j.partenaireId))
    .innerJoin(u, eq(u.id, j.userId))
    .innerJoin(r, eq(r.id, u.roleId))
    .where(eq(j.publicId, publicId!))
    .limit(1);
  // The stored hash is compared whole, in constant time: a wrong secret tells nothing of the right one.
  const given = Buffer.from(secretHashOf(secret!), 'hex');
  const stored = Buffer.from(row?.secretHash ?? '', 'hex');
  const matches = stored.length === given.length && timingSafeEqual(stored, given);
  if (!row || !matches) throw unauthorized(BEARER_MESSAGES.unknown, 'invalid_token');
  if (row.revokedAt) throw unauthorized(BEARER_MESSAGES.revoked, 'invalid_token');
  if (row.expiresAt.getTime() <= now) throw unauthorized(BEARER_MESSAGES.expired, 'invalid_token');
  return {
    session: {
      id: `jeton:${publicId}`,
      userId: row.user.id,
      expiresAt: row.expiresAt,
      twoFactorVerified: true,
    },
    // Enabled for this request only: the account itself stays disabled, so nobody can log in with it.
    user: {
      ...row.user,
      isEnabled: true,
      lastConnectionAt: null,
      role: row.role,
      twoFactorEnrolled: false,
      address,
    },
    jeton: {
      id: row.id,
      publicId: publicId!,
      nom: row.nom,
      partenaireId: row.partenaireId,
      partenaireCode: row.partenaireCode,
      scopes: row.scopes as ApiTokenScope[],
    },
  };
}

export interface TokenUse {
  method: string;
  /** The route's pattern ('/api/signalements/:code'), never the raw URL. */
  route: string;
  signalement: string | null;
}

/**
 * Counts one request of the token (429 with Retry-After over `perMinute`), writes it in the access log under
 * the token's account, and its last use when the stored one is older than a minute: one transaction, before
 * the work.
 */
export async function takeTokenUse(
  db: Database,
  auth: Auth & { jeton: TokenCaller },
  use: TokenUse,
  perMinute: number,
  now = Date.now(),
): Promise<void> {
  const j = db.t.jetonsApi;
  const at = new Date(now);
  const over = await db.transaction(async (tx) => {
    const counted = await countInWindow(db, tx, `jeton:${auth.jeton.id}`, RATE_WINDOW_MS, at);
    if (counted.count > perMinute) return counted.startedAt.getTime() + RATE_WINDOW_MS;
    await tx
      .update(j)
      .set({ lastUsedAt: at })
      .where(
        and(
          eq(j.id, auth.jeton.id),
          or(isNull(j.lastUsedAt), lt(j.lastUsedAt, new Date(now - LAST_USE_EVERY_MS))),
        ),
      );
    await recordAccess(
      db,
      {
        kind: 'jeton_api',
        userId: auth.user.id,
        email: auth.user.email,
        address: auth.user.address ?? null,
        signalement: use.signalement,
        details: {
          action: 'utilisation',
          jeton: auth.jeton.nom,
          partenaire: auth.jeton.partenaireCode,
          methode: use.method,
          route: use.route,
        },
      },
      tx,
      at,
    );
    return null;
  });
  if (over !== null) {
    throw new DomainError('too_many_requests', BEARER_MESSAGES.tooManyRequests, {
      retryAfterSeconds: retryAfterSeconds(over, now, RATE_WINDOW_MS),
    });
  }
}
