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
