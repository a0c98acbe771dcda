// Run by bench-reports.ts as its own process: the server alone. It listens on a free port, prints
// `port=<n> baseline=<MB>`, serves until its standard input closes, then prints its own peak memory and CPU
// time and exits. The download runs in the parent, and so does the choice of the reports exported
// (bench-export.ts, exportSelection): the figure is the serving process's memory for the export only.
import { readFileSync } from 'node:fs';
import { buildApp } from '#server/app';
import { loadConfig } from '#server/config';
import { createAppContext } from '#server/context';
import { openDatabase } from '#server/db/client';
import { cliOptions } from './cli';

const { positionals } = cliOptions(
  `Usage : tsx scripts/bench-export-child.ts <DATABASE_URL>

Le serveur seul, lancé par « npm run bench:reports » pour mesurer la mémoire d'un export.`,
  {},
);
if (!positionals[0]) {
  console.error('DATABASE_URL attendue en argument.');
  process.exit(1);
}
const url = positionals[0];
// Reads on this thread: the bundle built for this measurement has no reader-thread file beside it.
const db = openDatabase(url, { readWorkers: 0 });
const app = await buildApp({
  ctx: createAppContext(loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent' }), { db }),
});
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
const baselineMb = process.memoryUsage().rss / 1024 / 1024;
process.stdout.write(`port=${port} baseline=${baselineMb.toFixed(0)}\n`);

// The resident memory's two parts, sampled (Linux): anonymous (heaps, buffers) and file-backed (the code,
// memory-mapped database pages), to tell which one a peak comes from; and of the anonymous part, what
// the serving thread's JavaScript holds (its heap and the buffers outside it: an export's chunks).
const peaks = { anonKb: 0, fileKb: 0, mainKb: 0 };
const sampler = setInterval(() => {
  const { heapTotal, external } = process.memoryUsage();
  peaks.mainKb = Math.max(peaks.mainKb, (heapTotal + external) / 1024);
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    peaks.anonKb = Math.max(peaks.anonKb, kb('RssAnon'));
    peaks.fileKb = Math.max(peaks.fileKb, kb('RssFile'));
  } catch {
    clearInterval(sampler);
  }
}, 50);
process.stdin.resume();
/**
 * This process's peak resident memory: Linux's VmHWM, which starts afresh with the process's own image.
 * Not `resourceUsage().maxRSS` (getrusage's ru_maxrss): it survives execve, so a child spawned by a large
 * parent reports at least the parent's size at the fork (every run read 510 MB after a data generation).
 */
function peakKb(): number {
  try {
    const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (hwm) return Number(hwm);
  } catch {
    // Not Linux.
  }
  return process.resourceUsage().maxRSS;
}

process.stdin.on('end', async () => {
  const usage = process.resourceUsage();
  const cpuSeconds = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
  clearInterval(sampler);
  process.stdout.write(
    `peak=${(peakKb() / 1024).toFixed(0)} cpu=${cpuSeconds.toFixed(2)} ` +
      `anon=${(peaks.anonKb / 1024).toFixed(0)} file=${(peaks.fileKb / 1024).toFixed(0)} ` +
      `main=${(peaks.mainKb / 1024).toFixed(0)}\n`,
  );
  await app.close();
  await db.close();
  process.exit(0);
});
