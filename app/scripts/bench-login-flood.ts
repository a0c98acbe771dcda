// Log-in flood benchmark (not a test; decision 0015, "Log-in limits"): how long another person's log-in takes
// while one address sends N simultaneous log-ins, on SQLite, in process (Fastify's inject). Prints the other
// person's log-in time alone and under the flood (median and worst of the rounds) and what the flood
// got (refused at once, refused by the limiter, checked), and writes them to docs/figures/login-flood.json
// for the README (npm run readme:figures; decision 0042).
// Usage: npm run bench:login-flood [-- --flood N --rounds R]
import { createTestApp, TEST_PASSWORD } from '#tests/helpers/app';
import { hashGate } from '#server/domains/auth/password';
import { cliOptions } from './cli';
import { measured, typedCommand, writeFigures, type Cell } from './figures';

const USAGE = `Usage : npm run bench:login-flood [-- --flood N --rounds R]

Mesure la durée de la connexion d'une autre personne pendant que N connexions simultanées arrivent d'une
seule adresse (SQLite, en processus). Par défaut N = 450, R = 10 tours. Écrit les chiffres dans
docs/figures/login-flood.json pour le README (npm run readme:figures).`;

function parseArgs() {
  const { values } = cliOptions(USAGE, { flood: { type: 'string' }, rounds: { type: 'string' } });
  const flood = values.flood === undefined ? 450 : Number(values.flood);
  const rounds = values.rounds === undefined ? 10 : Number(values.rounds);
  if (!Number.isInteger(flood) || flood < 1 || !Number.isInteger(rounds) || rounds < 1) {
    console.error('--flood et --rounds : des entiers positifs sont attendus.');
    process.exit(1);
  }
  return { flood, rounds };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const { flood, rounds } = parseArgs();
const t = await createTestApp('sqlite');
try {
  await t.user('autre@example.mg', 'ROLE_USER', 'Rabe Autre');
  const login = (email: string, password: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email, password },
      headers: { 'x-forwarded-for': ip },
    });
  const other = async () => {
    const started = performance.now();
    const res = await login('autre@example.mg', TEST_PASSWORD, '10.200.0.1');
    if (res.statusCode !== 200) throw new Error(`connexion refusée : ${res.statusCode} ${res.body}`);
    return performance.now() - started;
  };
  await other(); // warm-up (the dummy hash, prepared statements)
  const alone: number[] = [];
  for (let i = 0; i < rounds; i++) alone.push(await other());

  const underFlood: number[] = [];
  const statuses = new Map<number, number>();
  const hashedBefore = hashGate.started;
  for (let round = 0; round < rounds; round++) {
    const ip = `10.100.${round}.1`; // a fresh address each round, so the limiter does not answer for the gate
    const sent = Array.from({ length: flood }, (_, i) => login(`flot${i}@example.mg`, 'mauvais', ip));
    underFlood.push(await other());
    for (const res of await Promise.all(sent))
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
  }
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  console.info(
    `SQLite, ${flood} connexions simultanées d'une adresse, ${rounds} tours, ${new Date().toISOString()}`,
  );
  console.info('| connexion d’une autre personne | médiane | pire |');
  console.info('| --- | --- | --- |');
  console.info(`| seule | ${ms(median(alone))} | ${ms(Math.max(...alone))} |`);
  console.info(`| pendant le flot | ${ms(median(underFlood))} | ${ms(Math.max(...underFlood))} |`);
  const checked = hashGate.started - hashedBefore - rounds;
  console.info(
    `Réponses au flot : ${[...statuses].map(([status, n]) => `${status} × ${n}`).join(', ')} ; mots de passe vérifiés : ${checked}`,
  );
  const whole = (v: number) => Math.round(v);
  const answers: Cell[][] = [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => [`HTTP ${status}`, n]);
  console.info(
    `\n${writeFigures(
      measured('login-flood', typedCommand('bench:login-flood'), [
        {
          caption: `Another person's log-in, alone and while one address sends ${flood} simultaneous log-ins with a wrong password (SQLite, in process), ${rounds} rounds (ms).`,
          columns: ["another person's log-in", 'median (ms)', 'worst (ms)'],
          rows: [
            ['alone', whole(median(alone)), whole(Math.max(...alone))],
            ['during the flood', whole(median(underFlood)), whole(Math.max(...underFlood))],
          ],
        },
        {
          caption: `What the flood's ${(flood * rounds).toLocaleString('en-US')} log-ins got (all rounds): answers by HTTP status, then the passwords actually checked.`,
          columns: ['answer', 'log-ins'],
          rows: [...answers, ['passwords checked', checked]],
        },
      ]),
    )}`,
  );
} finally {
  await t.close();
}
