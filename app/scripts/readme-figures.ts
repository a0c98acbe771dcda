// npm run readme:figures [-- --check]: writes into the README, between its markers, the Markdown each file of
// docs/figures/ renders to (scripts/figures.ts). --check changes nothing and fails when the README differs.
import { readFileSync, writeFileSync } from 'node:fs';
import { cliOptions } from './cli';
import { README, updatedReadme } from './figures';

const { values } = cliOptions(
  `Usage : npm run readme:figures [-- --check]

Réécrit dans README.md, entre les marqueurs <!-- figures:NOM --> et <!-- /figures:NOM -->, les chiffres
de docs/figures/NOM.json tels que les scripts de mesure les ont écrits. Avec --check, ne change rien et
sort en erreur si le README diffère de ces fichiers.`,
  { check: { type: 'boolean' } },
);

const markdown = readFileSync(README, 'utf8');
const result = updatedReadme(markdown);
for (const name of result.withoutFile)
  console.error(`Bloc « ${name} » du README sans docs/figures/${name}.json.`);
// A file without block is a run of another size (bench:reports --reports 2000): shown, not an error.
for (const name of result.withoutBlock) {
  console.info(`docs/figures/${name}.json n'a pas de bloc <!-- figures:${name} --> dans le README.`);
}
if (values.check) {
  for (const name of result.changed) console.error(`Bloc « ${name} » du README différent de son fichier.`);
  if (result.changed.length === 0 && result.withoutFile.length === 0) {
    console.info('Chiffres du README conformes à docs/figures/.');
  } else process.exitCode = 1;
} else {
  if (result.text !== markdown) writeFileSync(README, result.text);
  console.info(
    result.changed.length > 0 ? `Blocs réécrits : ${result.changed.join(', ')}.` : 'Aucun bloc à réécrire.',
  );
  if (result.withoutFile.length > 0) process.exitCode = 1;
}
