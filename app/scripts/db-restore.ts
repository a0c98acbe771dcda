// npm run db:restore FILE: puts a sealed backup back, into a stopped instance.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { BackupError } from '#server/ops/backup';
import { restoreDatabase } from '#server/ops/restore';
import { parseIdentity, SealError, type Unlock } from '#server/ops/seal';
import { cliOptions, configOrExit, failAndExit } from './cli';

const USAGE = `Usage : npm run db:restore -- [--identity FICHIER] <fichier de sauvegarde>

Restaure une sauvegarde scellée de npm run db:backup dans la base de DATABASE_URL, serveur arrêté.
La sauvegarde s'ouvre avec la clé privée (--identity FICHIER, écrit par --generate-recipient) ou la
phrase de passe (BACKUP_PASSPHRASE, sinon demandée au terminal). Elle est d'abord restaurée dans une
base neuve et vérifiée (fichier intact jusqu'au dernier octet, nombre de lignes de chaque table, clé
de chiffrement, schéma identique à celui des migrations) ; la base en place n'est remplacée qu'ensuite,
et gardée (fichier <base>.avant-restauration-<date>, ou base PostgreSQL <nom>_avant_restauration_<date>).
La clé de la sauvegarde remplace le fichier de clé s'il diffère, l'ancien étant gardé de même.

  --identity FICHIER   la clé privée X25519 qui ouvre la sauvegarde.`;

const { positionals, values } = cliOptions(USAGE, { identity: { type: 'string' } });
if (positionals.length !== 1) {
  console.error(`Indiquez le fichier de sauvegarde à restaurer.\n\n${USAGE}`);
  process.exit(1);
}
const config = configOrExit();

/** The passphrase typed on the terminal, not echoed. */
function askPassphrase(): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise((resolve) => {
    rl.question('Phrase de passe de la sauvegarde : ', (answer) => {
      rl.close();
      process.stderr.write('\n');
      resolve(answer);
    });
    muted = true;
  });
}

async function unlock(): Promise<Unlock> {
  if (values.identity !== undefined) {
    let pem: string;
    try {
      pem = readFileSync(values.identity, 'utf8');
    } catch (error) {
      throw new BackupError(`Clé privée illisible (${values.identity}) : ${(error as Error).message}`);
    }
    return { identity: parseIdentity(pem) };
  }
  if (config.BACKUP_PASSPHRASE) return { passphrase: config.BACKUP_PASSPHRASE };
  if (process.stdin.isTTY) return { passphrase: await askPassphrase() };
  throw new BackupError(
    'Indiquez la clé privée (--identity FICHIER) ou la phrase de passe (BACKUP_PASSPHRASE) de la sauvegarde.',
  );
}

try {
  const result = await restoreDatabase(config, positionals[0]!, await unlock());
  console.info(`Sauvegarde restaurée : ${positionals[0]}`);
  if (result.keptAside) console.info(`Base remplacée gardée : ${result.keptAside}`);
  if (result.keyRestored) console.info('Clé de chiffrement de la sauvegarde remise en place.');
  if (result.keyKeptAside) console.info(`Ancienne clé gardée : ${result.keyKeptAside}`);
} catch (error) {
  if (error instanceof BackupError || error instanceof SealError) {
    console.error(error.message);
    process.exit(1);
  }
  failAndExit(error);
}
