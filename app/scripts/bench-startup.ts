// npm run bench:startup [-- --runs N] [--figures]: the single executable's size and start-up time, the
// figures the README quotes (« A single executable », docs/decisions/0041-single-executable.md), measured
// rather than typed. Takes dist/signalements as `npm run package` left it (with dist/signalements.build.json,
// its size and content); for each run, copies it alone into a fresh temporary folder, with a PATH without
// node, and times the first start (files written to data/.runtime, database created, migrated, seeded) and
// the next one in the same folder, each until the first 200 of /api/health, then stops it with SIGTERM.
// Prints the medians; with --figures, writes docs/figures/single-executable.json (npm run readme:figures).
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '#tests/helpers/server-process';
import { cliOptions } from './cli';
import { measured, writeFigures } from './figures';
import type { Packaged } from './package';

const ROOT = resolve(import.meta.dirname, '..');
const EXE = join(ROOT, 'dist', 'signalements');
const BUILD = join(ROOT, 'dist', 'signalements.build.json');
const START_TIMEOUT_MS = 120_000;

const { values } = cliOptions(
  `Usage : npm run bench:startup [-- --runs N] [--figures]

Mesure l'exécutable unique construit par « npm run package » : sa taille, et le temps de son premier
démarrage dans un dossier vide (fichiers extraits, base créée, migrée et remplie) et du suivant, jusqu'à la
première réponse de /api/health ; N essais (3 par défaut), médianes affichées. Avec --figures, écrit
docs/figures/single-executable.json pour le README (npm run readme:figures).`,
  { runs: { type: 'string' }, figures: { type: 'boolean' } },
);
const runs = values.runs === undefined ? 3 : Number(values.runs);
if (!Number.isInteger(runs) || runs < 1 || runs > 20) {
  console.error('--runs : un entier entre 1 et 20 est attendu.');
  process.exit(1);
}
if (!existsSync(EXE) || !existsSync(BUILD)) {
  console.error("Exécutable absent : construisez-le d'abord avec « npm run package ».");
  process.exit(1);
}
const build = JSON.parse(readFileSync(BUILD, 'utf8')) as Packaged & { buildSeconds: number };

/** Starts the executable in `dir`, waits for /api/health, stops it with SIGTERM; returns the seconds. */
async function timedStart(dir: string): Promise<number> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { PATH: join(dir, 'bin'), PORT: String(port), PUBLIC_URL: base, LOG_LEVEL: 'warn' };
  const began = performance.now();
  const child = spawn(join(dir, 'signalements'), [], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`arrêté (code ${child.exitCode}) :\n${output}`);
      if (performance.now() - began > START_TIMEOUT_MS)
        throw new Error(`pas de réponse de /api/health après ${START_TIMEOUT_MS / 1000} s :\n${output}`);
      const status = (await fetch(`${base}/api/health`).catch(() => null))?.status;
      if (status === 200) break;
      await new Promise((done) => setTimeout(done, 50));
    }
    return (performance.now() - began) / 1000;
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    const code = await exited;
    if (code !== 0 && code !== null) console.error(`arrêt : code ${code}\n${output}`);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const first: number[] = [];
const next: number[] = [];
for (let i = 0; i < runs; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'signalements-startup-'));
  try {
    copyFileSync(EXE, join(dir, 'signalements'));
    chmodSync(join(dir, 'signalements'), 0o755);
    mkdirSync(join(dir, 'bin'));
    first.push(await timedStart(dir));
    next.push(await timedStart(dir));
    console.info(
      `essai ${i + 1} : premier ${first.at(-1)!.toFixed(1)} s, suivant ${next.at(-1)!.toFixed(1)} s`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const mb = (bytes: number) => Number((bytes / 1e6).toFixed(1));
console.info(
  `dist/signalements : ${mb(build.bytes)} Mo (Node ${build.node} : ${mb(build.nodeBytes)} Mo ; ${build.assets} fichiers intégrés : ${mb(build.assetBytes)} Mo), construit en ${build.buildSeconds.toFixed(1)} s ; démarrage (médiane de ${runs}) : premier ${median(first).toFixed(1)} s, suivant ${median(next).toFixed(1)} s.`,
);
if (values.figures) {
  const markdown = writeFigures(
    measured('single-executable', `npm run package && npm run bench:startup -- --runs ${runs} --figures`, [
      {
        caption:
          'Size of dist/signalements (MB, 10^6 bytes) and the time its packaging took (scripts/package.ts, after `vite build`).',
        columns: [
          'executable (MB)',
          'Node',
          'Node binary (MB)',
          'files carried',
          'files (MB)',
          'packaging (s)',
        ],
        decimals: [1, null, 1, null, 1, 1],
        rows: [
          [
            mb(build.bytes),
            build.node,
            mb(build.nodeBytes),
            build.assets,
            mb(build.assetBytes),
            Number(build.buildSeconds.toFixed(1)),
          ],
        ],
      },
      {
        caption: `Start-up until the first 200 of /api/health, median of ${runs} runs, each in a fresh empty folder (seconds): the first start writes data/.runtime and creates, migrates and seeds the database; the next reuses them.`,
        columns: ['first start (s)', 'next start (s)'],
        decimals: [1, 1],
        rows: [[Number(median(first).toFixed(1)), Number(median(next).toFixed(1))]],
      },
    ]),
  );
  console.info(`\n${markdown}`);
}
process.exit(0);
