// The first administrator (spec §2): the first start of a database without users creates one
// and prints its credentials once, on standard output only (never in the structured logs). seed:demo
// does the same before it adds its demo users, so a demo database also has its administrator. When the
// database already has users, ADMIN_EMAIL/ADMIN_PASSWORD would silently do nothing: that is said, with
// the command that does create an administrator.
import { ConfigError, type Config } from '#server/config';
import type { Database } from '#server/db/client';
import { passwordWeakness } from '../auth/password-strength';
import { countUsers, DEFAULT_ADMIN_NAME, findUserByEmail, upsertAdmin } from './service';

export const DEFAULT_ADMIN_EMAIL = 'admin@signalements.local';

export const ADMIN_SETTINGS_IGNORED =
  'ADMIN_EMAIL et ADMIN_PASSWORD ignorés : la base a déjà des utilisateurs. Pour créer un administrateur ' +
  '(ou réinitialiser son mot de passe) : npm run user:create-admin -- --email adresse@exemple.mg';

type AdminSettings = Pick<Config, 'ADMIN_EMAIL' | 'ADMIN_PASSWORD'>;

export async function ensureFirstAdmin(
  db: Database,
  config: AdminSettings,
  out: (text: string) => void = (text) => process.stdout.write(text),
): Promise<'created' | 'exists'> {
  const email = config.ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL;
  if ((await countUsers(db)) > 0) {
    // Said unless that account exists (created by an earlier start, or by seed:demo, from these settings).
    const asked = Boolean(config.ADMIN_EMAIL || config.ADMIN_PASSWORD);
    if (asked && !(await findUserByEmail(db, email))) out(`${ADMIN_SETTINGS_IGNORED}\n`);
    return 'exists';
  }
  if (config.ADMIN_PASSWORD) {
    // Stops the start like a bad variable does (server/index.ts prints the message alone).
    const weakness = await passwordWeakness(config.ADMIN_PASSWORD, [email, DEFAULT_ADMIN_NAME]);
    if (weakness) throw new ConfigError(`Configuration invalide :\n  - ADMIN_PASSWORD: ${weakness}`);
  }
  const { password } = await upsertAdmin(db, { email, password: config.ADMIN_PASSWORD });
  const shown = config.ADMIN_PASSWORD ? '(celui de ADMIN_PASSWORD)' : password;
  out(
    [
      '',
      '┌──────────────────────────────────────────────────────────────',
      '│ Premier administrateur créé (ce message ne sera plus affiché) :',
      `│   e-mail       : ${email.toLowerCase()}`,
      `│   mot de passe : ${shown}`,
      '└──────────────────────────────────────────────────────────────',
      '',
    ].join('\n') + '\n',
  );
  return 'created';
}
