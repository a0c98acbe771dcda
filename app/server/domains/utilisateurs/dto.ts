import type { Schema } from '#server/db/client';

/**
 * The columns a user is read with (session check, log-in, administration), for a select that joins the
 * user's role: `innerJoin(utilisateurRoles, eq(utilisateurRoles.id, utilisateurs.roleId))`.
 */
export const userColumns = ({ utilisateurs: u, utilisateurRoles: r }: Schema) => ({
  id: u.id,
  code: u.code,
  email: u.email,
  nomPrenom: u.nomPrenom,
  isEnabled: u.isEnabled,
  lastConnectionAt: u.lastConnectionAt,
  role: { code: r.code, designation: r.designation },
});

export interface UtilisateurRoleDto {
  '@id': string;
  '@type': 'UtilisateurRole';
  code: string;
  designation: string;
}

export interface UtilisateurDto {
  '@id': string;
  '@type': 'Utilisateur';
  code: string;
  email: string;
  nomPrenom: string;
  isEnabled: boolean;
  isCurrentUser: boolean;
  lastConnectionAt: string | null;
  utilisateurRole: UtilisateurRoleDto;
}

export function roleDto(role: { code: string; designation: string }): UtilisateurRoleDto {
  return {
    '@id': `/api/utilisateur_roles/${role.code}`,
    '@type': 'UtilisateurRole',
    code: role.code,
    designation: role.designation,
  };
}

export function utilisateurDto(
  user: {
    code: string;
    email: string;
    nomPrenom: string;
    isEnabled: boolean;
    lastConnectionAt: Date | null;
    role: { code: string; designation: string };
  },
  currentUserCode: string | null,
): UtilisateurDto {
  return {
    '@id': `/api/utilisateurs/${user.code}`,
    '@type': 'Utilisateur',
    code: user.code,
    email: user.email,
    nomPrenom: user.nomPrenom,
    isEnabled: user.isEnabled,
    isCurrentUser: user.code === currentUserCode,
    lastConnectionAt: user.lastConnectionAt?.toISOString() ?? null,
    utilisateurRole: roleDto(user.role),
  };
}
