// Durability benchmark (not a test; decision 0019): the cost of synchronous = FULL against NORMAL on SQLite,
// measured on this machine's disk. Creates reports through the REST facade, one after another (latency of
// an acknowledged create) and 8 at a time (throughput), with each setting on a fresh database in the
// system's temporary folder. Prints medians, p95 and creates per second, and writes them to
// docs/figures/durability.json for the README (npm run readme:figures; decision 0042).
// Usage: npm run bench:durability [-- --reports N]
import { sql } from 'drizzle-orm';
import { createTestApp } from '#tests/helpers/app';
import { createReport } from '#tests/helpers/signalements';
import { cliOptions } from './cli';
import { measured, typedCommand, writeFigures } from './figures';

const USAGE = `Usage : npm run bench:durability [-- --reports N]

Mesure le coût de synchronous = FULL (chaque validation écrite sur le disque) face à NORMAL sur SQLite :
N signalements créés un par un (latence), puis N par lots de 8 (débit). Par défaut N = 300. Écrit les
chiffres dans docs/figures/durability.json pour le README (npm run readme:figures).`;

function parseArgs(): { reports: number } {
  const { values } = cliOptions(USAGE, { reports: { type: 'string' } });
  const reports = values.reports === undefined ? 300 : Number(values.reports);
  if (!Number.isInteger(reports) || reports < 10) {
    console.error('--reports : un entier d’au moins 10 est attendu.');
    process.exit(1);
  }
  return { reports };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

async function measure(mode: 'NORMAL' | 'FULL', reports: number) {
  const t = await createTestApp('sqlite');
  try {
    await t.db.execute(sql.raw(`PRAGMA synchronous = ${mode}`));
    await t.user('bench@example.mg', 'ROLE_GESTIONNAIRE');
    const cookie = await t.login('bench@example.mg');
    for (let i = 0; i < 20; i++) await createReport(t, cookie);
    const one: number[] = [];
    for (let i = 0; i < reports; i++) {
      const started = performance.now();
      await createReport(t, cookie);
      one.push(performance.now() - started);
    }
    const started = performance.now();
    for (let i = 0; i < reports; i += 8) {
      await Promise.all(Array.from({ length: Math.min(8, reports - i) }, () => createReport(t, cookie)));
    }
    const perSecond = reports / ((performance.now() - started) / 1000);
    return { p50: percentile(one, 50), p95: percentile(one, 95), perSecond };
  } finally {
    await t.close();
  }
}

const { reports } = parseArgs();
const normal = await measure('NORMAL', reports);
const full = await measure('FULL', reports);
const row = (name: string, r: typeof normal) =>
  `| ${name} | ${r.p50.toFixed(2)} ms | ${r.p95.toFixed(2)} ms | ${r.perSecond.toFixed(0)} /s |`;
console.info(`SQLite, ${reports} créations par mode (REST, en processus), ${new Date().toISOString()}`);
console.info('| synchronous | création p50 | création p95 | créations par lots de 8 |');
console.info('| --- | --- | --- | --- |');
console.info(row('NORMAL', normal));
console.info(row('FULL', full));
console.info(
  `Rapport FULL / NORMAL : p50 × ${(full.p50 / normal.p50).toFixed(2)}, débit × ${(full.perSecond / normal.perSecond).toFixed(2)}`,
);
const cells = (name: string, r: typeof normal) => [
  name,
  Number(r.p50.toFixed(2)),
  Number(r.p95.toFixed(2)),
  Math.round(r.perSecond),
];
console.info(
  `\n${writeFigures(
    measured('durability', typedCommand('bench:durability'), [
      {
        caption: `SQLite, ${reports} reports created per setting through the REST facade, in process, each setting on a fresh database: one after another (the time of an acknowledged create, ms), then 8 at a time (creates a second).`,
        columns: ['synchronous', 'create p50 (ms)', 'create p95 (ms)', 'creates a second, 8 at a time'],
        decimals: [null, 2, 2, 0],
        rows: [cells('NORMAL', normal), cells('FULL', full)],
      },
    ]),
  )}`,
);
