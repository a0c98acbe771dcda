// npm run db:rotate-key [-- --new-key <clé>]
// Replaces the data key that encrypts the sources (docs/decisions/0017). Run it with the server
// stopped (it refuses while a server serves the database): every encrypted value is rewritten under the
// new key in one transaction.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '#server/config';
import { formatDataKey, generateDataKey, parseDataKey } from '#server/crypto/cipher';
import { KEY_FORMAT_HINT } from '#server/crypto/data-key';
import { rotateDataKey } from '#server/crypto/rotate';

const USAGE = `Usage : npm run db:rotate-key [-- --new-key <clé>]

Remplace la clé de chiffrement des sources (DATA_KEY ou fichier de clé) par une nouvelle clé :
toutes les valeurs chiffrées (sources, historique des sources, clés de double authentification)
et l'index de recherche des noms sont réécrits en une seule transaction.

Arrêtez le serveur avant de lancer cette commande : elle refuse de s'exécuter tant qu'un
serveur utilise la base (il garderait l'ancienne clé et ne lirait plus aucune source).

  --new-key <clé>   la nouvelle clé (${KEY_FORMAT_HINT}) ; à défaut NEW_DATA_KEY,
                    sinon une clé est générée.
  --help            affiche cette aide.

Avec un fichier de clé, le nouveau fichier remplace l'ancien, conservé sous le nom
<fichier>.<date>.old. Avec DATA_KEY, la nouvelle clé est affichée une seule fois : mettez-la
dans DATA_KEY avant de redémarrer le serveur. Sauvegardez la nouvelle clé avec la base.`;

let values: { 'new-key'?: string; help?: boolean };
try {
  ({ values } = parseArgs({ options: { 'new-key': { type: 'string' }, help: { type: 'boolean' } } }));
} catch (error) {
  console.error(`${(error as Error).message}\n\n${USAGE}`);
  process.exit(1);
}
if (values.help) {
  console.info(USAGE);
  process.exit(0);
}

const given = values['new-key'] ?? (process.env.NEW_DATA_KEY || undefined);
const newKey = given === undefined ? generateDataKey() : parseDataKey(given);
if (!newKey) {
  console.error(`Nouvelle clé invalide : elle doit contenir ${KEY_FORMAT_HINT}.`);
  process.exit(1);
}

try {
  const result = await rotateDataKey(loadConfig(), newKey);
  console.info('Clé de chiffrement remplacée.');
  console.info(`  sources réécrites            : ${result.sources}`);
  console.info(`  entrées d'historique         : ${result.history}`);
  console.info(`  clés de double authentification : ${result.totpKeys}`);
  console.info(`  notes internes               : ${result.notes}`);
  console.info(`  pièces jointes (clés rechiffrées) : ${result.evidence}`);
  console.info(`  secrets des webhooks         : ${result.webhookSecrets}`);
  if (result.origin === 'file') {
    console.info(`  nouvelle clé                 : ${result.keyFile}`);
    console.info(`  ancienne clé conservée       : ${result.oldKeyFile}`);
    console.info(
      "Sauvegardez la nouvelle clé avec la base. L'ancienne clé n'ouvre plus que les anciennes sauvegardes.",
    );
  } else if (given === undefined) {
    console.info(
      'Nouvelle clé (elle ne sera plus affichée) : mettez-la dans DATA_KEY avant de redémarrer le serveur :',
    );
    console.info(`  DATA_KEY=${formatDataKey(result.newKey)}`);
  } else {
    console.info('Mettez la nouvelle clé dans DATA_KEY avant de redémarrer le serveur.');
  }
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
