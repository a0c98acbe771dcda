// npm run db:backup: a consistent copy of the running database, with its key file, into BACKUP_DIR.
import { BackupError, backupDatabase } from '../server/ops/backup';
import { cliOptions, configOrExit, failAndExit } from './cli';

cliOptions(
  `Usage : npm run db:backup

Écrit une copie cohérente de la base (DATABASE_URL) pendant que le serveur tourne : l'API de sauvegarde
de SQLite, ou pg_dump (format personnalisé) pour PostgreSQL. La copie est nommée par sa date
(signalements-AAAA-MM-JJTHH-MM-SSZ.db ou .dump), dans BACKUP_DIR (./data/backups par défaut), avec à côté
le fichier de clé qui chiffre les sources (.key) ; seules les BACKUP_KEEP dernières (7 par défaut) sont
gardées. Avec DATA_KEY, la clé n'est pas copiée : conservez-la à part. Restauration : npm run db:restore.`,
  {},
);

const config = configOrExit();
try {
  const result = await backupDatabase(config);
  console.info(`Sauvegarde écrite : ${result.file}`);
  if (result.keyFile) console.info(`Clé de chiffrement copiée : ${result.keyFile}`);
  else if (config.DATA_KEY) console.info('Clé de chiffrement : DATA_KEY (non copiée, conservez-la à part).');
  for (const removed of result.removed) console.info(`Ancienne sauvegarde supprimée : ${removed}`);
} catch (error) {
  if (error instanceof BackupError) {
    console.error(error.message);
    process.exit(1);
  }
  failAndExit(error);
}
