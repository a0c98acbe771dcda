// The single executable's main script (docs/decisions/0041-single-executable.md), bundled by
// scripts/package.ts into CommonJS, as Node runs an executable's injected script: answers --help and
// --version, writes the carried files to data/.runtime/<id>/ once, then starts the server bundle from
// there. Builtins only (the injected script's require() loads nothing else): the rest is on disk.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { getAsset } from 'node:sea';
import { parseArgs } from 'node:util';
import { ensureRuntime, pruneRuntimes, runtimesDir, type Manifest } from './runtime';

const manifest = JSON.parse(getAsset('manifest.json', 'utf8')) as Manifest;

const USAGE = `Signalements ${manifest.version} — back-office de suivi des signalements, en un seul fichier.

Utilisation : ./signalements [--help | --version]

Démarre le serveur et l'application dans le dossier courant : base SQLite dans ./data (créée, migrée
et remplie des données de référence au premier démarrage), adresse http://127.0.0.1:3000/admin.
Au premier démarrage, l'e-mail et le mot de passe du premier administrateur sont affichés une fois.
Ctrl+C (ou SIGTERM) arrête le serveur proprement.

Options :
  -h, --help      affiche cette aide
  -v, --version   affiche la version

Réglages par variables d'environnement (toutes facultatives), par exemple :
  PORT=3000                  port HTTP
  HOST=127.0.0.1             interface d'écoute (0.0.0.0 : toutes les interfaces)
  DATABASE_URL=file:./data/signalements.db   ou une URL postgres://…
  PUBLIC_URL=http://localhost:3000           adresse publique (liens des e-mails)
  ADMIN_EMAIL, ADMIN_PASSWORD                premier administrateur d'une base vide
  SMTP_URL                   serveur d'envoi des e-mails (sinon fichiers .eml dans ./data/mail)
La liste complète est dans le README du projet (section « Configuration »).`;

function options() {
  try {
    return parseArgs({
      args: process.argv.slice(2),
      options: { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' } },
      strict: true,
    }).values;
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    const option = /'(-{1,2}[^' ]+)/.exec(message ?? '')?.[1] ?? '';
    const line =
      code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
        ? `Option inconnue : ${option}`
        : code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL'
          ? 'Argument inattendu.'
          : `Options invalides : ${message ?? String(error)}`;
    console.error(`${line}\n\n${USAGE}`);
    process.exit(1);
  }
}

const given = options();
if (given.help) {
  console.info(USAGE);
  process.exit(0);
}
if (given.version) {
  console.info(`signalements ${manifest.version} (Node.js ${process.version})`);
  process.exit(0);
}

const home = process.cwd();
let dir: string;
try {
  dir = ensureRuntime(home, manifest, (key) => getAsset(key));
} catch (error) {
  const { code, message } = error as NodeJS.ErrnoException;
  console.error(
    `Démarrage impossible : les fichiers de l'application n'ont pas pu être écrits dans ${runtimesDir(home)} (${code ?? message}).`,
  );
  process.exit(1);
}
// launch.cjs, written beside the bundle, imports dist/server/index.mjs: a module loaded from disk can
// import() files, which the injected script cannot. It settles once the server listens (the bundle exits
// the process itself when the start fails); runtimes of earlier builds are removed then.
const launch = createRequire(join(dir, 'launch.cjs'))('./launch.cjs') as { start(): Promise<unknown> };
void launch.start().then(() => pruneRuntimes(home, manifest.id));
