// Memory of an evidence file's upload and download (not a test; docs/decisions/0033-evidence-files.md): a
// 20 MB file sent and read back over a real socket on each engine, both streamed; prints the growth of the
// memory the process's JavaScript holds during each (V8's heap and the buffers outside it, collected before
// every sample: tests/helpers/evidence-memory.ts). The budget is 100 MB of extra memory; server/domains/evidence/
// memory.test.ts asserts it. Usage: npm run bench:evidence [-- --mb N]
import { testEngines } from '#tests/helpers/db';
import { measureEvidenceMemory } from '#tests/helpers/evidence-memory';
import { cliOptions } from './cli';

const USAGE = `Usage : npm run bench:evidence [-- --mb N]

Envoie puis télécharge une pièce jointe de N Mo (20 par défaut) sur SQLite et PostgreSQL, en flux, et affiche
la mémoire supplémentaire que le processus retient pendant chacun (tas V8 et tampons). Budget : 100 Mo.`;

const { values } = cliOptions(USAGE, { mb: { type: 'string' } });
const mb = values.mb === undefined ? 20 : Number(values.mb);
if (!Number.isInteger(mb) || mb < 1 || mb > 1024) {
  console.error('--mb : un entier entre 1 et 1024 est attendu.');
  process.exit(1);
}
const MiB = (n: number) => `${(n / 1e6).toFixed(1)} Mo`;
for (const engine of await testEngines()) {
  const m = await measureEvidenceMemory(engine, mb * 1_000_000);
  console.info(
    `${engine.padEnd(8)} fichier ${MiB(m.bytes)} : envoi +${MiB(m.uploadExtra)}, téléchargement +${MiB(m.downloadExtra)} (budget 100 Mo)`,
  );
}
process.exit(0);
