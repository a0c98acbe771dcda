import { ROLE_ADMIN, ROLE_USER } from '#shared/constants';
import type { BadgeTone } from '../components/ui/badge';

export interface RoleBadge {
  label: string;
  tone: BadgeTone;
}

/** Header role badge (spec §2): the two known roles get a French label and colour, others show their raw code. */
export function roleBadge(roleCode: string): RoleBadge {
  switch (roleCode) {
    case ROLE_ADMIN:
      return { label: 'Administrateur', tone: 'red' };
    case ROLE_USER:
      return { label: 'Utilisateur', tone: 'blue' };
    default:
      return { label: roleCode, tone: 'gray' };
  }
}

export function isAdmin(user: { utilisateurRole: { code: string } } | null | undefined): boolean {
  return user?.utilisateurRole.code === ROLE_ADMIN;
}

export function hasRole(
  user: { utilisateurRole: { code: string } } | null | undefined,
  role: string,
): boolean {
  return user?.utilisateurRole.code === role;
}
