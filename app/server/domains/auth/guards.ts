import { ROLE_ADMIN } from '#shared/constants';
import { forbidden } from '#server/errors';
import type { SessionUser } from './session';

export const isAdmin = (user: Pick<SessionUser, 'role'>) => user.role.code === ROLE_ADMIN;

/** Services call this for admin-only actions, so both doors (tRPC and REST) enforce the same rule. */
export function requireAdmin(user: Pick<SessionUser, 'role'>): void {
  if (!isAdmin(user)) throw forbidden();
}
