// The xlsx export's part of bench:reports: the export of about 100,000 reports downloaded from a server
// running in a child process (bench-export-child.ts), so its peak memory is the serving process's alone;
// this process downloads the file as a browser would. Run `runs` times per engine (a fresh server each
// time), printing each run and the medians: rows a second and the peak memory of the serving process.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { count, desc, gte } from 'drizzle-orm';
import { build } from 'esbuild';
import { openDatabase } from '#server/db/client';
import { writerCeiling } from './bench-export-ceiling';
import { measured, writeFigures, type Cell } from './figures';
import { serverBundleOptions } from './server-entries';

/** The export's goals (issue « Performance »): at least this many rows a second, at most this peak. */
export const EXPORT_GOALS = { rowsPerSecond: 20_000, peakMb: 250 };

const fr = (n: number, digits = 1) => n.toLocaleString('fr-FR', { maximumFractionDigits: digits });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface ExportRun {
  rows: number;
  megabytes: number;
  seconds: number;
  peakMb: number;
  /** CPU time of the serving process (all its threads) from its start to the end of the download. */
  cpuSeconds: number;
  /** Peaks of the resident memory's anonymous and file-backed parts (sampled every 50 ms, Linux). */
  anonMb: number;
  /** Peak of what the serving thread's JavaScript holds (its V8 heap and external memory), in the anonymous part. */
  mainMb: number;
  fileMb: number;
  baselineMb: number;
}

/**
 * Builds the child once: it runs as `npm start` runs the server (plain node on esbuild's output, no
 * TypeScript loader in the process), with the export thread's file beside it.
 */
async function buildChild(): Promise<string> {
  const outdir = resolve(import.meta.dirname, '../dist/bench');
  // As `npm run build:server` builds the server: drizzle-orm bundled in, every other package external.
  await build(
    serverBundleOptions(
      [
        resolve(import.meta.dirname, 'bench-export-child.ts'),
        resolve(import.meta.dirname, '../server/domains/signalements/export-thread.ts'),
      ],
      outdir,
    ),
  );
  return resolve(outdir, 'bench-export-child.mjs');
}

/**
 * The first day of the most recent ~100,000 reports (the export's filter) and how many reports it selects,
 * read here and not in the server's process: on SQLite these reads map some 30 MB of the database file
 * (a count of every report, an offset of 99,999), pages that the export never reads and that counted in
 * the server's peak when its process read them.
 */
async function exportSelection(url: string): Promise<{ after: string; count: number }> {
  const db = openDatabase(url, { readWorkers: 0 });
  try {
    const s = db.t.signalements;
    const [total] = await db.read.select({ n: count() }).from(s);
    const [boundary] = await db.read
      .select({ at: s.signalementAt })
      .from(s)
      .orderBy(desc(s.signalementAt))
      .limit(1)
      .offset(Math.min(99_999, total!.n - 1));
    const after = boundary!.at.toISOString().slice(0, 10);
    const [selected] = await db.read
      .select({ n: count() })
      .from(s)
      .where(gte(s.signalementAt, new Date(`${after}T00:00:00Z`)));
    return { after, count: selected!.n };
  } finally {
    await db.close();
  }
}

async function exportOnce(
  childBundle: string,
  url: string,
  chosen: { after: string; count: number },
  user: { email: string; password: string },
  nodeArgs: string[],
): Promise<ExportRun> {
  const child = spawn(process.execPath, [...nodeArgs, childBundle, url], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => (await lines.next()).value as string;
  const ready = Object.fromEntries((await next()).split(' ').map((kv) => kv.split('=')));
  const base = `http://127.0.0.1:${ready.port}`;
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  });
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const started = performance.now();
  const res = await fetch(`${base}/api/signalements/export/xlsx?signalementAt[after]=${chosen.after}`, {
    headers: { cookie },
  });
  if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
  if (Number(res.headers.get('x-total-count')) !== chosen.count)
    throw new Error(`export: ${res.headers.get('x-total-count')} reports, ${chosen.count} expected`);
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  const seconds = (performance.now() - started) / 1000;
  child.stdin!.end();
  const end = Object.fromEntries((await next()).split(' ').map((kv) => kv.split('=')));
  return {
    rows: Number(res.headers.get('x-total-count')),
    megabytes: bytes / 1024 / 1024,
    seconds,
    peakMb: Number(end.peak),
    cpuSeconds: Number(end.cpu),
    anonMb: Number(end.anon),
    mainMb: Number(end.main),
    fileMb: Number(end.file),
    baselineMb: Number(ready.baseline),
  };
}

/**
 * Prints the export's figures for one engine (`label`) on the database at `url`. `nodeArgs` go to the
 * server's process (`--cpu-prof`, `--cpu-prof-dir=…` profile it and its export thread).
 */
export async function benchExport(
  label: string,
  url: string,
  user: { email: string; password: string },
  { runs = 3, nodeArgs = [] as string[] } = {},
): Promise<ExportMedians> {
  const childBundle = await buildChild();
  const chosen = await exportSelection(url);
  console.info(`\nExport xlsx — ${label}, ${runs} mesures (un serveur neuf pour chacune)`);
  const all: ExportRun[] = [];
  for (let i = 0; i < runs; i++) {
    const run = await exportOnce(childBundle, url, chosen, user, nodeArgs);
    all.push(run);
    console.info(
      `  ${fr(run.rows, 0)} signalements : ${fr(run.megabytes)} Mo en ${fr(run.seconds, 2)} s, ` +
        `${fr(run.rows / run.seconds, 0)} lignes/s ; mémoire maximale du serveur ${fr(run.peakMb, 0)} Mo ` +
        `(${fr(run.baselineMb, 0)} Mo avant l'export ; au plus ${fr(run.anonMb, 0)} Mo anonymes, ` +
        `dont ${fr(run.mainMb, 0)} Mo du fil principal, ` +
        `${fr(run.fileMb, 0)} Mo de fichiers), ${fr(run.cpuSeconds)} s de processeur`,
    );
  }
  const rate = median(all.map((r) => r.rows / r.seconds));
  const peak = median(all.map((r) => r.peakMb));
  console.info(
    `  médianes : ${fr(rate, 0)} lignes/s (objectif ≥ ${fr(EXPORT_GOALS.rowsPerSecond, 0)}), ` +
      `mémoire maximale ${fr(peak, 0)} Mo (objectif ≤ ${EXPORT_GOALS.peakMb} Mo)`,
  );
  return { rows: median(all.map((r) => r.rows)), rowsPerSecond: rate, peakMb: peak, runs };
}

/** The medians of one engine's runs, for docs/figures/export.json. */
export interface ExportMedians {
  rows: number;
  rowsPerSecond: number;
  peakMb: number;
  runs: number;
}

/**
 * The export on each database (engine name, URL), then its medians written to docs/figures/export.json
 * (the README's block) and printed; `command` is the one the figures name.
 */
export async function exportFigures(
  databases: Array<[engine: string, url: string]>,
  user: { email: string; password: string },
  command: string,
): Promise<void> {
  const rows: Cell[][] = [];
  for (const [engine, url] of databases) {
    const m = await benchExport(engine, url, user);
    rows.push([
      engine,
      m.rows,
      Math.round(m.rowsPerSecond),
      Math.round(m.peakMb),
      EXPORT_GOALS.rowsPerSecond,
      EXPORT_GOALS.peakMb,
    ]);
  }
  // The writer alone, from rows in memory (bench-export-ceiling.ts): what the sheet costs without the
  // database, the thread and the download, and what exceljs alone costs of it.
  const ceiling = await writerCeiling();
  console.info(
    `\nÉcriture seule (${fr(ceiling.rows, 0)} lignes en mémoire, médianes de 3) : notre écriture ` +
      `${fr(ceiling.writerRowsPerSecond, 0)} lignes/s, exceljs seul ${fr(ceiling.exceljsRowsPerSecond, 0)} lignes/s`,
  );
  console.info(
    `\n${writeFigures(
      measured('export', command, [
        {
          caption: `The xlsx export (\`GET /api/signalements/export/xlsx\`) of about 100,000 reports, downloaded from a server in its own process, built as \`npm start\` runs it; medians of 3 runs, a fresh server each.`,
          columns: [
            'engine',
            'rows',
            'rows a second',
            'peak memory of the server (MB)',
            'goal: rows a second',
            'goal: peak (MB)',
          ],
          rows,
        },
        {
          caption: `The sheet alone, written from ${ceiling.rows.toLocaleString('en')} reports held in memory (no database, thread or download; \`scripts/bench-export-ceiling.ts\`): the export's writer, and exceljs's streaming writer alone with the same values computed beforehand, the ceiling of any change on our side; medians of 3.`,
          columns: ['writer', 'rows a second'],
          rows: [
            ['export-writer.ts', Math.round(ceiling.writerRowsPerSecond)],
            ['exceljs alone', Math.round(ceiling.exceljsRowsPerSecond)],
          ],
        },
      ]),
    )}`,
  );
}
