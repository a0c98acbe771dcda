// Which second-factor step a session still owes (docs/decisions/0016-two-factor.md). Used by the
// perimeter (server/http/access.ts, server/trpc/init.ts): a session with a step to do reaches only
// the doors that declare `twoFactorStep`.
import { ROLE_ADMIN } from '#shared/constants';
import type { TwoFactorStep } from '#shared/schemas/auth';
import type { Config } from '#server/config';
import type { Auth } from '#server/context';

export function twoFactorRequired(user: Auth['user'], config: Pick<Config, 'TWO_FACTOR_REQUIRED'>): boolean {
  return config.TWO_FACTOR_REQUIRED === 'all' || user.role.code === ROLE_ADMIN;
}

export function twoFactorStep(auth: Auth, config: Pick<Config, 'TWO_FACTOR_REQUIRED'>): TwoFactorStep {
  if (auth.session.twoFactorVerified) return null;
  if (auth.user.twoFactorEnrolled) return 'verify';
  return twoFactorRequired(auth.user, config) ? 'enrol' : null;
}
