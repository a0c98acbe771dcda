// npm run db:restore FILE: puts a backup back, into a stopped instance.
import { BackupError, restoreDatabase } from '../server/ops/backup';
import { cliOptions, configOrExit, failAndExit } from './cli';

const USAGE = `Usage : npm run db:restore -- <fichier de sauvegarde>

Restaure une sauvegarde de npm run db:backup dans la base de DATABASE_URL, serveur arrêté. Vérifie
d'abord la sauvegarde (intégrité SQLite, ou pg_restore --list) et que le serveur ne tourne pas. La base
remplacée est gardée (fichier <base>.avant-restauration-<date>, ou base PostgreSQL
<nom>_avant_restauration_<date>) ; la clé de chiffrement de la sauvegarde (.key à côté) remplace le
fichier de clé, l'ancien étant gardé de même.`;

const { positionals } = cliOptions(USAGE, {});
if (positionals.length !== 1) {
  console.error(`Indiquez le fichier de sauvegarde à restaurer.\n\n${USAGE}`);
  process.exit(1);
}
const config = configOrExit();
try {
  const result = await restoreDatabase(config, positionals[0]!);
  console.info(`Sauvegarde restaurée : ${positionals[0]}`);
  if (result.keptAside) console.info(`Base remplacée gardée : ${result.keptAside}`);
  if (result.keyRestored) console.info('Clé de chiffrement de la sauvegarde remise en place.');
  if (result.keyKeptAside) console.info(`Ancienne clé gardée : ${result.keyKeptAside}`);
  if (result.dataKeyToSet) {
    console.info(`DATA_KEY doit prendre la valeur du fichier ${result.dataKeyToSet} avant de redémarrer le serveur.`);
  }
} catch (error) {
  if (error instanceof BackupError) {
    console.error(error.message);
    process.exit(1);
  }
  failAndExit(error);
}
