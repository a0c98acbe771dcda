// The benchmarks' demo data (bench:reports, bench:load, bench:dashboard): a database topped up to N reports
// by the demo generator, generated once and kept for later runs, with the progress printed.
import { count } from 'drizzle-orm';
import type { Database } from '../server/db/client';
import { seedDemo } from '../server/db/seed/demo';

const fr = (n: number, digits = 0) => n.toLocaleString('fr-FR', { maximumFractionDigits: digits });

/**
 * Generates what the database lacks of `target` reports (the generator's `seed` makes the rows the same
 * from one run to the next). Returns how many reports it held before.
 */
export async function topUpDemoReports(db: Database, target: number, options: { seed: number; where: string }): Promise<number> {
  const [{ n: present } = { n: 0 }] = await db.read.select({ n: count() }).from(db.t.signalements);
  if (present >= target) {
    console.info(`${fr(present)} signalements déjà présents (${options.where}), réutilisés.`);
    return present;
  }
  console.info(`${fr(present)} signalements présents (${options.where}), génération de ${fr(target - present)}…`);
  const started = performance.now();
  let shown = 0;
  await seedDemo(db, {
    reports: target - present,
    seed: options.seed,
    onProgress(done, total) {
      if (done - shown >= 100_000 || done === total) {
        shown = done;
        console.info(`  … ${fr(done)} / ${fr(total)} (${fr((performance.now() - started) / 1000, 1)} s)`);
      }
    },
  });
  return present;
}
