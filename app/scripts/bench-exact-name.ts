// npm run bench:exact-name [-- --reports 500 --runs 2000 --no-pg | --no-sqlite]
// Does the time of a list search tell whether a (protected) source bears the searched name? (Decision
// 0015, "Timing of the exact-name search".)
// Times the list page (listPage, as the endpoint runs it) searched by a user who may not know the source,
// alternately by the exact name of a protected source and by a name no source has, and prints both
// medians and how well the best single threshold tells them apart (50 % = not at all; 71 % was
// measured before the fix). Temporary databases (the test fixtures'), dropped at the end. Writes the figures
// to docs/figures/exact-name.json for the README (npm run readme:figures; decision 0042). Not part of
// `npm test`.
import { performance } from 'node:perf_hooks';
import { createTestApp } from '#tests/helpers/app';
import { postgresAvailable } from '#tests/helpers/db';
import { createReport, mergePatch } from '#tests/helpers/signalements';
import type { Engine } from '#server/db/client';
import type { SessionUser } from '#server/domains/auth/session';
import { listPage } from '#server/domains/signalements/queries';
import { cliOptions } from './cli';
import { measured, typedCommand, writeFigures, type Cell } from './figures';
import { separability } from './separability';

const { values } = cliOptions(
  `Usage : npm run bench:exact-name -- [--reports 500] [--runs 2000] [--no-pg | --no-sqlite]

Mesure si la durée d'une recherche par nom exact révèle qu'une source protégée porte ce nom. Écrit les
chiffres dans docs/figures/exact-name.json pour le README (npm run readme:figures).`,
  {
    reports: { type: 'string' },
    runs: { type: 'string' },
    'no-pg': { type: 'boolean' },
    'no-sqlite': { type: 'boolean' },
  },
);
const REPORTS = Number(values.reports ?? 500);
const RUNS = Number(values.runs ?? 2000);
if (!Number.isInteger(REPORTS) || REPORTS < 0 || !Number.isInteger(RUNS) || RUNS < 2) {
  console.error('--reports : un entier positif ou nul, --runs : un entier d’au moins 2 sont attendus.');
  process.exit(1);
}
const PRESENT = 'Rasoanirina Source-Protégée';
const ABSENT = 'Rasoanirina Personne-Inconnue';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function run(engine: Engine): Promise<Cell[]> {
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
    const separable = separability(present, absent) * 100;
    console.info(
      `${engine} : nom présent ${ms(median(present))} ms, nom absent ${ms(median(absent))} ms (médianes), ` +
        `séparables à ${separable.toFixed(1)} % (50 % = indiscernables)`,
    );
    const rounded = (n: number, digits: number) => Number(n.toFixed(digits));
    return [
      engine === 'sqlite' ? 'SQLite' : 'PostgreSQL',
      rounded(median(present), 3),
      rounded(median(absent), 3),
      rounded(separable, 1),
    ];
  } finally {
    await t.close();
  }
}

const rows: Cell[][] = [];
if (!values['no-sqlite']) rows.push(await run('sqlite'));
if (!values['no-pg'] && (await postgresAvailable())) rows.push(await run('postgres'));
if (rows.length > 0)
  console.info(
    `\n${writeFigures(
      measured('exact-name', typedCommand('bench:exact-name'), [
        {
          caption: `The list page searched, by a user who may not know the source, by the exact name of a protected source (present) and by a name no source has (absent), alternately, ${RUNS.toLocaleString('en-US')} searches among ${(REPORTS + 1).toLocaleString('en-US')} reports (one carries the source): medians (ms), and how often the best single threshold on the time tells them apart (50 % = not at all).`,
          columns: ['engine', 'name present (ms)', 'name absent (ms)', 'told apart (%)'],
          decimals: [null, 3, 3, 1],
          rows,
        },
      ]),
    )}`,
  );
