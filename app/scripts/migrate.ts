// npm run db:migrate: applies the committed migrations of the engine chosen by DATABASE_URL.
// (The server also does this at every start.)
import { openDatabase } from '#server/db/client';
import { cliOptions, configOrExit, failAndExit } from './cli';

cliOptions(
  `Usage : npm run db:migrate

Applique les migrations de la base choisie par DATABASE_URL (SQLite ou PostgreSQL). Le serveur le fait
aussi à chaque démarrage.`,
  {},
);

const db = openDatabase(configOrExit().DATABASE_URL);
try {
  await db.migrate();
  console.info(`Migrations appliquées (${db.engine}).`);
} catch (error) {
  await db.close().catch(() => undefined);
  failAndExit(error);
} finally {
  await db.close();
}
