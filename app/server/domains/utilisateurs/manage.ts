// The administrator's actions on accounts (spec §2 Users, §6): create with a set-up e-mail, edit,
// enable/disable, send a reset e-mail. Each one is a single transaction with the e-mail it causes.
import { and, eq, sql } from 'drizzle-orm';
import { ROLE_ADMIN } from '#shared/constants';
import type { CreateUtilisateurInput, UpdateUtilisateurInput } from '#shared/schemas/utilisateurs';
import type { Stamping } from '#server/context';
import type { Database, Orm } from '#server/db/client';
import { conflict, forbidden, notFound } from '#server/errors';
import { requireAdmin } from '../auth/guards';
import { issuePasswordToken } from '../auth/password-tokens';
import { invalidateUserSessions, type SessionUser } from '../auth/session';
import { recordRightsChange } from '../journal/record';
import { unassignDisabledUser } from '../signalements/assignees';
import { enqueueMail } from '../mail/outbox';
import { accountSetupMail, passwordLink, passwordResetMail } from '../mail/templates';
import { userColumns, utilisateurDto, type UtilisateurDto } from './dto';
import { createUser, roleIdOf } from './service';

export const USER_RULES = {
  notFound: 'Utilisateur introuvable.',
  tokenAccount: "Ce compte est celui d'un jeton d'API : il se gère depuis « Accès API » (révocation).",
  selfDisable: 'Vous ne pouvez pas désactiver votre propre compte.',
  selfDemote: "Vous ne pouvez pas retirer votre propre rôle d'administrateur.",
  lastAdminDisable: 'Impossible de désactiver le dernier administrateur actif.',
  lastAdminDemote: 'Impossible de retirer le rôle du dernier administrateur actif.',
  resetDisabled: "Impossible d'envoyer un email de réinitialisation à un utilisateur désactivé.",
  resetSent: 'Email de réinitialisation envoyé avec succès !',
} as const;

async function findUser(db: Database, tx: Orm, where: { id: number } | { code: string }) {
  const { utilisateurs: u, utilisateurRoles: r } = db.t;
  const [row] = await tx
    .select(userColumns(db.t))
    .from(u)
    .innerJoin(r, eq(r.id, u.roleId))
    .where('id' in where ? eq(u.id, where.id) : eq(u.code, where.code))
    .limit(1);
  return row ?? null;
}

/**
 * Ids of the enabled administrators. On PostgreSQL their rows are locked until the transaction ends,
 * so two administrators disabling each other at the same moment are handled one after the other and
 * the second sees the first's change (SQLite transactions are serialised already).
 */
async function lockEnabledAdmins(db: Database, tx: Orm): Promise<number[]> {
  const { utilisateurs: u } = db.t;
  const adminRoleId = await roleIdOf(db, ROLE_ADMIN);
  const condition = and(eq(u.roleId, adminRoleId), eq(u.isEnabled, true));
  const rows = await db.rows<{ id: number | string }>(
    db.dialect.lockingRows(sql`select ${u.id} as id from ${u} where ${condition}`),
    tx,
  );
  return rows.map((row) => Number(row.id));
}

export async function inviteUser(
  ctx: Stamping,
  actor: SessionUser,
  input: CreateUtilisateurInput,
  publicUrl: string,
): Promise<UtilisateurDto> {
  requireAdmin(actor);
  const { db } = ctx;
  return db.transaction(async (tx) => {
    const { id } = await createUser(db, {
      email: input.email,
      nomPrenom: input.nomPrenom,
      roleCode: input.utilisateurRole,
    });
    const user = (await findUser(db, tx, { id }))!;
    await recordRightsChange(
      ctx,
      actor,
      { action: 'creation', utilisateur: user.code, role: user.role.designation },
      tx,
    );
    const { token } = await issuePasswordToken(db, id, 'setup');
    await enqueueMail(
      db,
      accountSetupMail({ to: user.email, nomPrenom: user.nomPrenom, link: passwordLink(publicUrl, token) }),
    );
    return utilisateurDto(user, actor.code);
  });
}

/** A repeated invitation (Idempotency-Key) shows the account only to whom may still read accounts: an administrator. */
export async function rereadInvitedUser(actor: SessionUser, stored: UtilisateurDto): Promise<UtilisateurDto> {
  requireAdmin(actor);
  return stored;
}

export async function updateUser(
  ctx: Stamping,
  actor: SessionUser,
  code: string,
  patch: UpdateUtilisateurInput,
): Promise<UtilisateurDto> {
  requireAdmin(actor);
  const { db } = ctx;
  const roleId = patch.utilisateurRole === undefined ? undefined : await roleIdOf(db, patch.utilisateurRole);
  return db.transaction(async (tx) => {
    const target = await findUser(db, tx, { code });
    if (!target) throw notFound(USER_RULES.notFound);
    // A token's account stays disabled and keeps its role: nobody logs in with it (docs/decisions/0038).
    const { jetonsApi } = db.t;
    const [token] = await tx
      .select({ id: jetonsApi.id })
      .from(jetonsApi)
      .where(eq(jetonsApi.userId, target.id));
    if (token) throw conflict(USER_RULES.tokenAccount);
    const wasActiveAdmin = target.isEnabled && target.role.code === ROLE_ADMIN;
    const disabling = patch.isEnabled === false && target.isEnabled;
    const demoting =
      patch.utilisateurRole !== undefined &&
      patch.utilisateurRole !== ROLE_ADMIN &&
      target.role.code === ROLE_ADMIN;
    if (target.id === actor.id) {
      if (patch.isEnabled === false) throw forbidden(USER_RULES.selfDisable);
      if (demoting) throw forbidden(USER_RULES.selfDemote);
    }
    if (wasActiveAdmin && (disabling || demoting)) {
      const others = (await lockEnabledAdmins(db, tx)).filter((id) => id !== target.id);
      if (others.length === 0)
        throw conflict(disabling ? USER_RULES.lastAdminDisable : USER_RULES.lastAdminDemote);
    }
    const { utilisateurs: u } = db.t;
    await tx
      .update(u)
      .set({
        ...(patch.nomPrenom !== undefined ? { nomPrenom: patch.nomPrenom } : {}),
        ...(roleId !== undefined ? { roleId } : {}),
        ...(patch.isEnabled !== undefined ? { isEnabled: patch.isEnabled } : {}),
      })
      .where(eq(u.id, target.id));
    // Checked at every request too; deleting the rows ends the sessions even before their next use.
    if (disabling) await invalidateUserSessions(db, target.id);
    // A disabled account keeps no report: they show « Non assigné » unless someone else has them
    // (docs/decisions/0028).
    if (disabling) await unassignDisabledUser(ctx, tx, actor, target);
    const after = (await findUser(db, tx, { id: target.id }))!;
    const rights = rightsChanges(target, after);
    if (rights)
      await recordRightsChange(
        ctx,
        actor,
        { action: 'modification', utilisateur: target.code, ...rights },
        tx,
      );
    return utilisateurDto(after, actor.code);
  });
}

type Rights = { isEnabled: boolean; role: { code: string; designation: string } };
const accountState = (enabled: boolean) => (enabled ? 'actif' : 'désactivé');

/** The role and enabled changes between two states of an account (for the access log), or null. */
function rightsChanges(before: Rights, after: Rights) {
  const changes: Record<string, { avant: string; apres: string }> = {};
  if (before.role.code !== after.role.code)
    changes.role = { avant: before.role.designation, apres: after.role.designation };
  if (before.isEnabled !== after.isEnabled)
    changes.compte = { avant: accountState(before.isEnabled), apres: accountState(after.isEnabled) };
  return Object.keys(changes).length > 0 ? changes : null;
}

export async function sendPasswordReset(
  db: Database,
  actor: SessionUser,
  code: string,
  publicUrl: string,
): Promise<{ message: string }> {
  requireAdmin(actor);
  await db.transaction(async (tx) => {
    const target = await findUser(db, tx, { code });
    if (!target) throw notFound(USER_RULES.notFound);
    if (!target.isEnabled) throw conflict(USER_RULES.resetDisabled);
    const { token } = await issuePasswordToken(db, target.id, 'reset');
    await enqueueMail(
      db,
      passwordResetMail({
        to: target.email,
        nomPrenom: target.nomPrenom,
        link: passwordLink(publicUrl, token),
      }),
    );
  });
  return { message: USER_RULES.resetSent };
}
