// npm run seed:demo -- --reports 1000 [--seed 42]
// Fills the database chosen by DATABASE_URL with demo partners, projects, users and reports. Adds
// reports at every run; partners, projects and users are created only once.
import { z } from 'zod';
import { ConfigError } from '#server/config';
import { DataKeyError, openDataKey } from '#server/crypto/data-key';
import { openDatabase } from '#server/db/client';
import { seed } from '#server/db/seed/index';
import { DEMO_EMAIL_DOMAIN, DEMO_PASSWORD, seedDemo } from '#server/db/seed/demo';
import { ensureFirstAdmin } from '#server/domains/utilisateurs/first-admin';
import { cliOptions, configOrExit, failAndExit } from './cli';

const USAGE = `Usage : npm run seed:demo -- [--reports 1000] [--seed 42]

Remplit la base choisie par DATABASE_URL de partenaires, projets, utilisateurs et signalements de
démonstration. Ajoute des signalements à chaque lancement ; partenaires, projets et utilisateurs ne sont
créés qu'une fois. Sur une base sans administrateur, crée d'abord le premier administrateur comme le
serveur le fait à son premier démarrage (ADMIN_EMAIL et ADMIN_PASSWORD s'ils sont définis).

  --reports N   nombre de signalements à ajouter (0 à 5 000 000, 1000 par défaut)
  --seed N      graine du générateur (mêmes données pour la même graine)
  --help        affiche cette aide`;

const { values } = cliOptions(USAGE, { reports: { type: 'string' }, seed: { type: 'string' } });
const args = z
  .object({
    reports: z.coerce
      .number({ message: 'Usage : npm run seed:demo -- --reports 1000 [--seed 42]' })
      .int({ message: '--reports doit être un entier.' })
      .min(0, { message: '--reports doit être positif ou nul.' })
      .max(5_000_000, { message: '--reports : 5 000 000 au plus.' })
      .default(1000),
    seed: z.coerce.number().int({ message: '--seed doit être un entier.' }).optional(),
  })
  .safeParse(values);
if (!args.success) {
  console.error(args.error.issues.map((i) => i.message).join('\n'));
  process.exit(1);
}

const fr = (n: number) => n.toLocaleString('fr-FR');
const config = configOrExit();
const db = openDatabase(config.DATABASE_URL);
try {
  const started = performance.now();
  await db.migrate();
  // Sources are written encrypted with the server's data key (docs/decisions/0017).
  const { cipher, createdKeyFile } = await openDataKey(db, config).catch((error: unknown) => {
    if (error instanceof DataKeyError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  });
  if (createdKeyFile)
    console.info(
      `Clé de chiffrement des sources créée dans ${createdKeyFile} : sauvegardez-la avec la base.`,
    );
  await seed(db);
  // Before the demo users: otherwise the server's first start would find users and create no administrator.
  await ensureFirstAdmin(db, config).catch((error: unknown) => {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  });
  const referenceMs = performance.now() - started;
  let lastShown = 0;
  const result = await seedDemo(
    { db, cipher },
    {
      reports: args.data.reports,
      seed: args.data.seed,
      onProgress(done, total) {
        if (done - lastShown >= 20_000 || done === total) {
          lastShown = done;
          console.info(`  … ${fr(done)} / ${fr(total)} signalements`);
        }
      },
    },
  );
  const seconds = (performance.now() - started) / 1000;
  console.info(`Données de démonstration créées (${db.engine}) :`);
  console.info(`  signalements       : ${fr(result.reports)}`);
  console.info(`  auteurs présumés   : ${fr(result.auteurs)}`);
  console.info(`  sources            : ${fr(result.sources)}`);
  console.info(`  victimes           : ${fr(result.victimes)}`);
  console.info(`  partenaires créés  : ${fr(result.partenaires)}`);
  console.info(`  projets créés      : ${fr(result.projects)}`);
  console.info(`  utilisateurs créés : ${fr(result.utilisateurs)}`);
  if (result.utilisateurs > 0) {
    console.info(`  connexion : <prénom>.<nom>@${DEMO_EMAIL_DOMAIN}, mot de passe « ${DEMO_PASSWORD} »`);
  }
  console.info(
    `Durée : ${seconds.toLocaleString('fr-FR', { maximumFractionDigits: 1 })} s ` +
      `(migrations et référentiels : ${(referenceMs / 1000).toLocaleString('fr-FR', { maximumFractionDigits: 1 })} s).`,
  );
} catch (error) {
  await db.close().catch(() => undefined);
  failAndExit(error);
} finally {
  await db.close().catch(() => undefined);
}
