import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, notExists } from 'drizzle-orm';
import { ROLE_ADMIN } from '#shared/constants';
import { UTILISATEUR_OPTIONS_LIMIT } from '#shared/schemas/utilisateurs';
import type { Database } from '#server/db/client';
import { insertWithFreshCode } from '#server/db/fresh-code';
import { foldedMatch, idIn } from '#server/db/folded-search';
import { conflict, invalid, notFound } from '#server/errors';
import { generatePassword, hashPassword } from '../auth/password';
import { assertStrongPassword } from '../auth/password-strength';
import { isAdmin, requireAdmin } from '../auth/guards';
import { invalidateUserSessions, type SessionUser } from '../auth/session';
import { userColumns, utilisateurDto, type UtilisateurDto } from './dto';

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

function newUserCode(): string {
  return `USR-${randomBytes(5).toString('hex').toUpperCase()}`;
}

export const DUPLICATE_EMAIL = 'Un utilisateur avec cet email existe déjà.';

export async function roleIdOf(db: Database, roleCode: string): Promise<number> {
  const [role] = await db.read
    .select({ id: db.t.utilisateurRoles.id })
    .from(db.t.utilisateurRoles)
    .where(eq(db.t.utilisateurRoles.code, roleCode))
    .limit(1);
  if (!role) throw invalid('Rôle sélectionné introuvable');
  return role.id;
}

export async function findUserByEmail(db: Database, email: string) {
  const { utilisateurs, utilisateurRoles } = db.t;
  const [row] = await db.read
    .select({ ...userColumns(db.t), passwordHash: utilisateurs.passwordHash })
    .from(utilisateurs)
    .innerJoin(utilisateurRoles, eq(utilisateurRoles.id, utilisateurs.roleId))
    .where(eq(utilisateurs.email, normalizeEmail(email)))
    .limit(1);
  return row ?? null;
}

export interface CreateUserInput {
  email: string;
  nomPrenom: string;
  roleCode: string;
  password?: string;
}

export async function createUser(
  db: Database,
  input: CreateUserInput,
): Promise<{ id: number; code: string }> {
  if (input.password) await assertStrongPassword(input.password, [input.email, input.nomPrenom]);
  return insertUser(db, input, input.password ? await hashPassword(input.password) : null);
}

/** The insert behind createUser, with a hash the caller computed (or none: the set-up link sets it). */
async function insertUser(
  db: Database,
  input: Omit<CreateUserInput, 'password'>,
  passwordHash: string | null,
): Promise<{ id: number; code: string }> {
  const email = normalizeEmail(input.email);
  const roleId = await roleIdOf(db, input.roleCode);
  try {
    return await db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ id: db.t.utilisateurs.id })
        .from(db.t.utilisateurs)
        .where(eq(db.t.utilisateurs.email, email))
        .limit(1);
      if (existing) throw conflict(DUPLICATE_EMAIL);
      const { utilisateurs: u } = db.t;
      return insertWithFreshCode(
        'user',
        newUserCode,
        async (code) =>
          (
            await tx
              .insert(u)
              .values({ code, email, nomPrenom: input.nomPrenom.trim(), roleId, passwordHash })
              .onConflictDoNothing({ target: u.code })
              .returning({ id: u.id, code: u.code })
          )[0],
      );
    });
  } catch (error) {
    // Two creations of the same address at once on PostgreSQL: the unique index decides.
    if (db.dialect.isUniqueViolation(error)) throw conflict(DUPLICATE_EMAIL);
    throw error;
  }
}

/** Sets a password, refused when weak (see password-strength.ts), and ends every other session of the user. */
export async function setPassword(db: Database, userId: number, password: string, keepSession?: string) {
  const [user] = await db.read
    .select({ email: db.t.utilisateurs.email, nomPrenom: db.t.utilisateurs.nomPrenom })
    .from(db.t.utilisateurs)
    .where(eq(db.t.utilisateurs.id, userId))
    .limit(1);
  if (!user) throw notFound();
  await assertStrongPassword(password, [user.email, user.nomPrenom]);
  await storePasswordHash(db, userId, await hashPassword(password), keepSession);
}

/** Stores an argon2 hash computed by the caller and ends every session of the user but `keepSession`. */
export async function storePasswordHash(
  db: Database,
  userId: number,
  passwordHash: string,
  keepSession?: string,
) {
  await db.transaction(async (tx) => {
    await tx.update(db.t.utilisateurs).set({ passwordHash }).where(eq(db.t.utilisateurs.id, userId));
    await invalidateUserSessions(db, userId, keepSession);
  });
}

export const DEFAULT_ADMIN_NAME = 'Administrateur';

/**
 * Creates or resets an administrator (CLI and first start). Returns the password that was set,
 * generated when none is given. A given password must pass the strength check; a generated one
 * (about 100 random bits) is not checked.
 */
export async function upsertAdmin(
  db: Database,
  input: { email: string; nomPrenom?: string; password?: string },
): Promise<{ created: boolean; password: string; code: string }> {
  const existing = await findUserByEmail(db, input.email);
  const nomPrenom = input.nomPrenom ?? existing?.nomPrenom ?? DEFAULT_ADMIN_NAME;
  if (input.password) await assertStrongPassword(input.password, [input.email, nomPrenom]);
  const password = input.password ?? generatePassword();
  const passwordHash = await hashPassword(password);
  if (!existing) {
    const user = await insertUser(db, { email: input.email, nomPrenom, roleCode: ROLE_ADMIN }, passwordHash);
    return { created: true, password, code: user.code };
  }
  const roleId = await roleIdOf(db, ROLE_ADMIN);
  await db.transaction(async (tx) => {
    await tx
      .update(db.t.utilisateurs)
      .set({ roleId, isEnabled: true, ...(input.nomPrenom ? { nomPrenom: input.nomPrenom } : {}) })
      .where(eq(db.t.utilisateurs.id, existing.id));
    await storePasswordHash(db, existing.id, passwordHash);
  });
  return { created: false, password, code: existing.code };
}

export async function countUsers(db: Database): Promise<number> {
  const [row] = await db.read.select({ n: count() }).from(db.t.utilisateurs);
  return row?.n ?? 0;
}

/** Name (or, unless `namesOnly`, e-mail) contains the term, ignoring case and accents (see foldedMatch). */
async function userSearchCondition(db: Database, search: string | undefined, namesOnly = false) {
  if (!search?.trim()) return undefined;
  const { utilisateurs: u } = db.t;
  const rows = await db.read.select({ id: u.id, nomPrenom: u.nomPrenom, email: u.email }).from(u);
  return idIn(
    u.id,
    foldedMatch(rows, (r) => (namesOnly ? [r.nomPrenom] : [r.nomPrenom, r.email]), search),
  );
}

export interface ListUsersInput {
  page: number;
  itemsPerPage: number;
  nomPrenom?: string;
}

export async function listUsers(
  db: Database,
  actor: SessionUser,
  input: ListUsersInput,
): Promise<{ items: UtilisateurDto[]; total: number }> {
  requireAdmin(actor);
  const { utilisateurs, utilisateurRoles, jetonsApi } = db.t;
  // The accounts of partner API tokens are managed on « Accès API » (docs/decisions/0038), not here.
  const where = and(
    await userSearchCondition(db, input.nomPrenom),
    notExists(
      db.read.select({ id: jetonsApi.id }).from(jetonsApi).where(eq(jetonsApi.userId, utilisateurs.id)),
    ),
  );
  const [totalRow] = await db.read.select({ n: count() }).from(utilisateurs).where(where);
  const rows = await db.read
    .select(userColumns(db.t))
    .from(utilisateurs)
    .innerJoin(utilisateurRoles, eq(utilisateurRoles.id, utilisateurs.roleId))
    .where(where)
    .orderBy(asc(utilisateurs.nomPrenom), asc(utilisateurs.id))
    .limit(input.itemsPerPage)
    .offset((input.page - 1) * input.itemsPerPage);
  return { items: rows.map((r) => utilisateurDto(r, actor.code)), total: totalRow?.n ?? 0 };
}

export async function listRoles(db: Database) {
  return db.read
    .select({ code: db.t.utilisateurRoles.code, designation: db.t.utilisateurRoles.designation })
    .from(db.t.utilisateurRoles)
    .orderBy(asc(db.t.utilisateurRoles.id));
}

export interface UtilisateurOption {
  code: string;
  nomPrenom: string;
  /** Sent to administrators only; other users see names (docs/decisions/0015). */
  email?: string;
}

/**
 * The report list's creator picker: open to any logged-in user (GET /api/utilisateurs stays admin
 * only), at most UTILISATEUR_OPTIONS_LIMIT of them. Least privilege (docs/decisions/0015): a
 * non-admin gets codes and names and searches names only, so the picker cannot list or probe e-mails;
 * an administrator also gets and searches the e-mails.
 */
export async function listUserOptions(
  db: Database,
  actor: SessionUser,
  search: string | undefined,
  enabledOnly = false,
): Promise<UtilisateurOption[]> {
  const { utilisateurs } = db.t;
  const admin = isAdmin(actor);
  const searched = await userSearchCondition(db, search, !admin);
  const where = enabledOnly ? and(searched, eq(utilisateurs.isEnabled, true)) : searched;
  const query = admin
    ? db.read
        .select({ code: utilisateurs.code, nomPrenom: utilisateurs.nomPrenom, email: utilisateurs.email })
        .from(utilisateurs)
    : db.read.select({ code: utilisateurs.code, nomPrenom: utilisateurs.nomPrenom }).from(utilisateurs);
  return query
    .where(where)
    .orderBy(asc(utilisateurs.nomPrenom), asc(utilisateurs.id))
    .limit(UTILISATEUR_OPTIONS_LIMIT);
}
