// npm run build:check: runs `npm run build` (Vite for the client, esbuild for the server), passes its output
// through, and fails when a line of it is a warning: a clean build prints none (README « Delivery »). Vite,
// rolldown, esbuild, npm and Node each spell a warning their own way; warningLines() knows them all.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { cliOptions } from './cli';

/** Plugins of this project whose `this.info` lines look like a plugin's warning once colours are off. */
const INFO_PLUGINS = ['signalements-precompress'];

const WARNING_PATTERNS: RegExp[] = [
  // Vite: the config loader's and the chunk size reporter's warnings, rollup-style warnings.
  /\(!\)/,
  // rolldown (deprecated options and the like): " WARN  advancedChunks option is deprecated…"
  /^\s*WARN\b/,
  // rolldown's coded notices: "[PLUGIN_TIMINGS] …", "[UNRESOLVED_IMPORT] …".
  /^\s*\[[A-Z][A-Z_]+\]/,
  // esbuild: "▲ [WARNING] …"
  /\[WARNING\]|▲/,
  // npm ("npm warn …", "npm WARN …") and Node ("(node:123) Warning: …", "DeprecationWarning", "ExperimentalWarning").
  /^npm warn\b/i,
  /\b\w*Warning\b|\bWarning:/,
];

/**
 * npm's word on the machine's own npm configuration, not on the build: a key of the user's ~/.npmrc (or of
 * the global npmrc, or its npm_config_* variable) this npm does not know, such as `nodedir` that a machine
 * sets for native modules' headers. A key of the project's .npmrc stays a warning.
 */
const MACHINE_NPM_CONFIG = /^npm warn Unknown (user|global|env|builtin) config "[^"]*"/i;

/** The lines of a build's output that are warnings; the list of written files is never one. */
export function warningLines(output: string): string[] {
  const warnings: string[] = [];
  // Colours off: the lines compared are the text a user reads.
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
  for (const line of plain.split('\n')) {
    if (/^\s*dist\//.test(line) || MACHINE_NPM_CONFIG.test(line.trim())) continue;
    const plugin = /^\[plugin ([^\]]+)\]/.exec(line)?.[1];
    if (plugin !== undefined) {
      if (!INFO_PLUGINS.includes(plugin)) warnings.push(line);
      continue;
    }
    if (WARNING_PATTERNS.some((pattern) => pattern.test(line))) warnings.push(line);
  }
  return warnings;
}

async function main(): Promise<number> {
  const child = spawn('npm', ['run', 'build'], {
    cwd: resolve(import.meta.dirname, '..'),
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    process.stdout.write(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    process.stderr.write(chunk);
  });
  const code = await new Promise<number>((done) => child.on('close', (status) => done(status ?? 1)));
  if (code !== 0) return code;
  const warnings = warningLines(output);
  if (warnings.length > 0) {
    console.error(`\nLa construction a affiché ${warnings.length} avertissement(s) :`);
    for (const line of warnings) console.error(`  ${line.trim()}`);
    return 1;
  }
  console.info('\nConstruction sans avertissement.');
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  cliOptions(
    `Usage : npm run build:check

Construit le client et le serveur (« npm run build ») et sort en erreur si la construction affiche un
avertissement (Vite, rolldown, esbuild, npm ou Node).`,
    {},
  );
  process.exitCode = await main();
}
