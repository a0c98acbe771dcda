// Partner API tokens, the administrators' side (docs/decisions/0038-partner-api-tokens.md): create (the secret
// is returned once, only its SHA-256 is kept), list per partner, revoke. Each token acts through an account of
// its own, disabled and without a password (nobody logs in with it), so that what a token does is written
// under its name in the reports' history, the idempotency keys and the access log.
import { createHash, randomBytes } from 'node:crypto';
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import { desc, eq } from 'drizzle-orm';
import { ROLE_USER, type ApiTokenScope } from '#shared/constants';
import type { CreatedJeton, JetonDto, JetonState } from '#shared/dto/jetons-api';
import type { JetonCreate } from '#shared/schemas/jetons-api';
import type { Stamping } from '#server/context';
import type { Database, Orm } from '#server/db/client';
import { insertWithFreshCode } from '#server/db/fresh-code';
import { conflict, notFound } from '#server/errors';
import type { SessionUser } from '../auth/session';
import { requireAdmin } from '../auth/guards';
import { byActor, recordAccess } from '../journal/record';
import { roleIdOf } from '../utilisateurs/service';

export type { CreatedJeton, JetonDto, JetonState };

export const TOKEN_PREFIX = 'sig_';
/** `sig_` + public id (10 random bytes) + `_` + secret (20 random bytes), both in lower-case base32. */
export const TOKEN_FORMAT = /^sig_([a-z2-7]{16})_([a-z2-7]{32})$/;
/** The accounts of the tokens: an address that can receive no mail (RFC 2606's `.invalid`). */
export const TOKEN_ACCOUNT_DOMAIN = 'jetons-api.invalid';
const DAY_MS = 24 * 60 * 60 * 1000;

export const JETON_RULES = {
  notFound: "Jeton d'API introuvable.",
  partenaire: 'Partenaire introuvable.',
  alreadyRevoked: "Ce jeton d'API est déjà révoqué.",
} as const;

export const secretHashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

export function stateOf(row: { revokedAt: Date | null; expiresAt: Date }, now = Date.now()): JetonState {
  if (row.revokedAt) return 'revoque';
  return row.expiresAt.getTime() <= now ? 'expire' : 'actif';
}

const randomBase32 = (bytes: number) => encodeBase32LowerCaseNoPadding(randomBytes(bytes));

function columns(db: Database) {
  const { jetonsApi: j, partenaires: p, utilisateurs: u } = db.t;
  return {
    publicId: j.publicId,
    nom: j.nom,
    scopes: j.scopes,
    expiresAt: j.expiresAt,
    createdAt: j.createdAt,
    revokedAt: j.revokedAt,
    lastUsedAt: j.lastUsedAt,
    partenaireCode: p.code,
    partenaireDesignation: p.designation,
    createdByCode: u.code,
    createdByName: u.nomPrenom,
  };
}

type Row = {
  publicId: string;
  nom: string;
  scopes: string[];
  expiresAt: Date;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  partenaireCode: string;
  partenaireDesignation: string;
  createdByCode: string;
  createdByName: string;
};

function toDto(row: Row): JetonDto {
  return {
    id: row.publicId,
    nom: row.nom,
    partenaire: { code: row.partenaireCode, designation: row.partenaireDesignation },
    scopes: row.scopes as ApiTokenScope[],
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    createdBy: { code: row.createdByCode, nomPrenom: row.createdByName },
    revokedAt: row.revokedAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    etat: stateOf(row),
  };
}

/** The tokens, newest first; of one partner when `partenaire` is given. */
export async function listJetons(
  db: Database,
  actor: SessionUser,
  filter: { partenaire?: string | undefined },
): Promise<JetonDto[]> {
  requireAdmin(actor);
  const { jetonsApi: j, partenaires: p, utilisateurs: u } = db.t;
  const rows = await db.read
    .select(columns(db))
    .from(j)
    .innerJoin(p, eq(p.id, j.partenaireId))
    .innerJoin(u, eq(u.id, j.createdById))
    .where(filter.partenaire ? eq(p.code, filter.partenaire) : undefined)
    .orderBy(desc(j.createdAt), desc(j.id))
    .limit(1000);
  return rows.map(toDto);
}

async function findJeton(db: Database, tx: Orm, publicId: string): Promise<Row | undefined> {
  const { jetonsApi: j, partenaires: p, utilisateurs: u } = db.t;
  const [row] = await tx
    .select(columns(db))
    .from(j)
    .innerJoin(p, eq(p.id, j.partenaireId))
    .innerJoin(u, eq(u.id, j.createdById))
    .where(eq(j.publicId, publicId))
    .limit(1);
  return row;
}

/** Creates a token and its account; the answer holds the secret, which no later answer repeats. */
export async function createJeton(
  ctx: Stamping,
  actor: SessionUser,
  input: JetonCreate,
): Promise<CreatedJeton> {
  requireAdmin(actor);
  const { db } = ctx;
  const now = ctx.clock.now();
  const { jetonsApi: j, partenaires: p, utilisateurs: u } = db.t;
  const roleId = await roleIdOf(db, ROLE_USER);
  const publicId = randomBase32(10);
  const secretPart = randomBase32(20);
  const secret = `${TOKEN_PREFIX}${publicId}_${secretPart}`;
  const row = await db.transaction(async (tx) => {
    const [partner] = await tx
      .select({ id: p.id, code: p.code, designation: p.designation })
      .from(p)
      .where(eq(p.code, input.partenaire))
      .limit(1);
    if (!partner) throw notFound(JETON_RULES.partenaire);
    const account = await insertWithFreshCode(
      'user',
      () => `JET-${randomBytes(5).toString('hex').toUpperCase()}`,
      async (code) =>
        (
          await tx
            .insert(u)
            .values({
              code,
              email: `jeton-${publicId}@${TOKEN_ACCOUNT_DOMAIN}`,
              nomPrenom: `Jeton API « ${input.nom} » (${partner.designation})`.slice(0, 200),
              roleId,
              passwordHash: null,
              isEnabled: false,
              digestEnabled: false,
            })
            .onConflictDoNothing({ target: u.code })
            .returning({ id: u.id })
        )[0],
    );
    await tx.insert(j).values({
      publicId,
      secretHash: secretHashOf(secretPart),
      nom: input.nom,
      partenaireId: partner.id,
      userId: account.id,
      scopes: input.scopes,
      expiresAt: new Date(now.getTime() + input.dureeJours * DAY_MS),
      createdById: actor.id,
    });
    await recordAccess(
      db,
      {
        kind: 'jeton_api',
        ...byActor(actor),
        details: { action: 'creation', jeton: input.nom, partenaire: partner.code, portees: input.scopes },
      },
      tx,
      now,
    );
    return (await findJeton(db, tx, publicId))!;
  });
  return { jeton: toDto(row), secret };
}

/** Revokes a token at once: its next request gets 401. */
export async function revokeJeton(ctx: Stamping, actor: SessionUser, publicId: string): Promise<JetonDto> {
  requireAdmin(actor);
  const { db } = ctx;
  const now = ctx.clock.now();
  const { jetonsApi: j } = db.t;
  const row = await db.transaction(async (tx) => {
    const found = await findJeton(db, tx, publicId);
    if (!found) throw notFound(JETON_RULES.notFound);
    if (found.revokedAt) throw conflict(JETON_RULES.alreadyRevoked);
    await tx.update(j).set({ revokedAt: now }).where(eq(j.publicId, publicId));
    await recordAccess(
      db,
      {
        kind: 'jeton_api',
        ...byActor(actor),
        details: { action: 'revocation', jeton: found.nom, partenaire: found.partenaireCode },
      },
      tx,
      now,
    );
    return (await findJeton(db, tx, publicId))!;
  });
  return toDto(row);
}
