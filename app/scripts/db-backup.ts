// npm run db:backup: a consistent copy of the running database, sealed with its data key, into BACKUP_DIR.
// npm run db:backup -- --generate-recipient FILE: a key pair for BACKUP_RECIPIENT (the private key to FILE).
import { closeSync, openSync, writeSync } from 'node:fs';
import { BackupError, backupDatabase } from '#server/ops/backup';
import { generateRecipient } from '#server/ops/seal';
import { cliOptions, configOrExit, failAndExit } from './cli';

const { values } = cliOptions(
  `Usage : npm run db:backup [-- --generate-recipient FICHIER]

Écrit une copie cohérente de la base (DATABASE_URL) pendant que le serveur tourne : l'API de sauvegarde
de SQLite, ou pg_dump (format personnalisé) pour PostgreSQL. La copie et la clé qui chiffre les sources
sont scellées ensemble dans un seul fichier (signalements-AAAA-MM-JJTHH-MM-SSZ.sqlite.sauvegarde ou
.postgres.sauvegarde), dans BACKUP_DIR (./data/backups par défaut), pour la clé publique BACKUP_RECIPIENT
et/ou la phrase de passe BACKUP_PASSPHRASE (l'une des deux est obligatoire). Seules les BACKUP_KEEP
dernières (7 par défaut) sont gardées. Restauration : npm run db:restore.

  --generate-recipient FICHIER   crée une paire de clés : écrit la clé privée dans FICHIER (0600, à
                                 emporter hors de la machine) et affiche la clé publique à mettre dans
                                 BACKUP_RECIPIENT. Ne sauvegarde rien.`,
  { 'generate-recipient': { type: 'string' } },
);

if (values['generate-recipient'] !== undefined) {
  const file = values['generate-recipient'];
  const { recipient, privatePem } = generateRecipient();
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (error) {
    console.error(
      (error as NodeJS.ErrnoException).code === 'EEXIST'
        ? `${file} existe déjà : choisissez un autre fichier (une clé privée n'est jamais écrasée).`
        : `Écriture impossible de ${file} : ${(error as Error).message}`,
    );
    process.exit(1);
  }
  writeSync(fd, privatePem);
  closeSync(fd);
  console.info(
    `Clé privée écrite : ${file} (0600). Emportez-la hors de cette machine et supprimez-la ici : elle seule ouvre les sauvegardes.`,
  );
  console.info(`Clé publique, à mettre dans BACKUP_RECIPIENT :\n${recipient}`);
  process.exit(0);
}

const config = configOrExit();
try {
  const result = await backupDatabase(config);
  console.info(`Sauvegarde scellée écrite : ${result.file}`);
  for (const removed of result.removed) console.info(`Ancienne sauvegarde supprimée : ${removed}`);
  for (const key of result.unsealedKeys) {
    console.warn(
      `Attention : ${key} est une clé en clair d'une ancienne sauvegarde non scellée ; supprimez-la (et sa copie hors machine).`,
    );
  }
} catch (error) {
  if (error instanceof BackupError) {
    console.error(error.message);
    process.exit(1);
  }
  failAndExit(error);
}
