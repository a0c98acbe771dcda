// npm run bench:exact-name [-- --reports 500 --runs 2000 --no-pg | --no-sqlite]
// Does the time of a list search tell whether a (protected) source bears the searched name? (Decision
// 0015, "Timing of the exact-name search".)
// Times the list page (listPage, as the endpoint runs it) searched by a user who may not know the source,
// alternately by the exact name of a protected source and by a name no source has, and prints both
// medians and how well the best single threshold tells them apart (50 % = not at all; 71 % was
// measured before the fix). Temporary databases (the test fixtures'), dropped at the end. Not part of
// `npm test`.
import { performance } from 'node:perf_hooks';
import { createTestApp } from '#tests/helpers/app';
import { postgresAvailable } from '#tests/helpers/db';
import { createReport, mergePatch } from '#tests/helpers/signalements';
import type { Engine } from '#server/db/client';
import type { SessionUser } from '#server/domains/auth/session';
import { listPage } from '#server/domains/signalements/queries';
import { cliOptions } from './cli';

const { values } = cliOptions(
  `Usage : npm run bench:exact-name -- [--reports 500] [--runs 2000] [--no-pg | --no-sqlite]

Mesure si la durée d'une recherche par nom exact révèle qu'une source protégée porte ce nom.`,
  {
    reports: { type: 'string' },
    runs: { type: 'string' },
    'no-pg': { type: 'boolean' },
    'no-sqlite': { type: 'boolean' },
  },
);
const REPORTS = Number(values.reports ?? 500);
const RUNS = Number(values.runs ?? 2000);
const PRESENT = 'Rasoanirina Source-Protégée';
const ABSENT = 'Rasoanirina Personne-Inconnue';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The accuracy of the best rule « slower than t means present » (or its reverse): 0.5 is chance. */
function separability(present: number[], absent: number[]): number {
  const all = [
    ...present.map((v) => ({ v, present: true })),
    ...absent.map((v) => ({ v, present: false })),
  ].sort((a, b) => a.v - b.v);
  let presentBelow = 0;
  let absentBelow = 0;
  let best = 0.5;
  for (const x of all) {
    if (x.present) presentBelow++;
    else absentBelow++;
    // Threshold just above x: « above means present » is right for the absent ones below, present ones above.
    const right = (absentBelow + present.length - presentBelow) / all.length;
    best = Math.max(best, right, 1 - right);
  }
  return best;
}

async function run(engine: Engine) {
  const t = await createTestApp(engine);
  try {
    await t.user('createur@example.mg', 'ROLE_USER');
    const otherCode = await t.user('autre@example.mg', 'ROLE_USER');
    const creator = await t.login('createur@example.mg');
    for (let i = 0; i < REPORTS; i++)
      await createReport(t, creator, { autreObject: `Rapport ${i} de détournement` });
    const report = await createReport(t, creator);
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/sources',
      headers: { cookie: creator, 'sec-fetch-site': 'same-origin' },
      payload: {
        signalement: `/api/signalements/${report}`,
        nomPrenom: PRESENT,
        canaux: ['/api/canals/TELEPHONE'],
      },
    });
    if (added.statusCode !== 201) throw new Error(`source : ${added.statusCode} ${added.body}`);
    await mergePatch(t, creator, `/api/signalements/${report}`, { isAnonyme: true });
    const users = await t.db.read
      .select({ id: t.db.t.utilisateurs.id, code: t.db.t.utilisateurs.code })
      .from(t.db.t.utilisateurs);
    const other: SessionUser = {
      id: users.find((u) => u.code === otherCode)!.id,
      code: otherCode,
      email: 'autre@example.mg',
      nomPrenom: 'Rakoto Jean',
      isEnabled: true,
      lastConnectionAt: null,
      role: { code: 'ROLE_USER', designation: 'Utilisateur' },
      twoFactorEnrolled: false,
    };
    const time = async (search: string) => {
      const start = performance.now();
      await listPage(t.ctx, other, { search, page: 1, itemsPerPage: 20 });
      return performance.now() - start;
    };
    for (let i = 0; i < 100; i++) await time(i % 2 ? PRESENT : ABSENT);
    const present: number[] = [];
    const absent: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // Alternated, so that drifts of the machine weigh on both alike.
      if (i % 2) present.push(await time(PRESENT));
      else absent.push(await time(ABSENT));
    }
    const ms = (n: number) => n.toLocaleString('fr-FR', { maximumFractionDigits: 3 });
    console.info(
      `${engine} : nom présent ${ms(median(present))} ms, nom absent ${ms(median(absent))} ms (médianes), ` +
        `séparables à ${(separability(present, absent) * 100).toFixed(1)} % (50 % = indiscernables)`,
    );
  } finally {
    await t.close();
  }
}

if (!values['no-sqlite']) await run('sqlite');
if (!values['no-pg'] && (await postgresAvailable())) await run('postgres');
