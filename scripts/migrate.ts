// npm run db:migrate: applies the committed migrations of the engine chosen by DATABASE_URL.
// (The server also does this at every start.)
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';

const db = openDatabase(loadConfig().DATABASE_URL);
try {
  await db.migrate();
  console.info(`Migrations appliquées (${db.engine}).`);
} finally {
  await db.close();
}
