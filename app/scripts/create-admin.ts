// npm run user:create-admin -- --email admin@example.mg [--name "Nom Prénom"] [--password ...]
// Creates the administrator, or resets an existing account to an enabled administrator with a new
// password (generated and printed when --password is not given). Ends that user's open sessions.
import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '#shared/constants';
import { openDatabase } from '#server/db/client';
import { seed } from '#server/db/seed/index';
import { DomainError } from '#server/errors';
import { upsertAdmin } from '#server/domains/utilisateurs/service';
import { cliOptions, configOrExit, failAndExit } from './cli';

const USAGE = `Usage : npm run user:create-admin -- --email adresse@exemple.mg [--name "Nom Prénom"] [--password …]

Crée un administrateur, ou remet un compte existant en administrateur actif avec un nouveau mot de passe
(généré et affiché sans --password). Ferme les sessions ouvertes de ce compte.

  --email      son adresse e-mail (obligatoire)
  --name       son nom et prénom
  --password   son mot de passe (au moins ${PASSWORD_MIN_LENGTH} caractères, difficile à deviner)
  --help       affiche cette aide`;

const { values } = cliOptions(USAGE, {
  email: { type: 'string' },
  name: { type: 'string' },
  password: { type: 'string' },
});

const args = z
  .object({
    email: z.email({ message: 'Usage : npm run user:create-admin -- --email adresse@exemple.mg' }),
    name: z.string().trim().min(2, { message: 'Le nom doit contenir au moins 2 caractères.' }).optional(),
    password: z
      .string()
      .min(PASSWORD_MIN_LENGTH, {
        message: `Le mot de passe doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères.`,
      })
      .optional(),
  })
  .safeParse(values);
if (!args.success) {
  console.error(args.error.issues.map((i) => i.message).join('\n'));
  process.exit(1);
}

const db = openDatabase(configOrExit().DATABASE_URL);
try {
  await db.migrate();
  await seed(db);
  // upsertAdmin refuses a weak --password (password-strength.ts) with a French message.
  const result = await upsertAdmin(db, {
    email: args.data.email,
    nomPrenom: args.data.name,
    password: args.data.password,
  });
  console.info(result.created ? 'Administrateur créé.' : 'Administrateur mis à jour (sessions fermées).');
  console.info(`  e-mail       : ${args.data.email.toLowerCase()}`);
  if (!args.data.password) console.info(`  mot de passe : ${result.password}`);
} catch (error) {
  if (!(error instanceof DomainError)) {
    await db.close().catch(() => undefined);
    failAndExit(error);
  }
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await db.close();
}
