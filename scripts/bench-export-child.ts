// Run by bench-reports.ts in its own process: streams the xlsx export of about 100,000 reports
// (the most recent ones) to /dev/null through the real endpoint and prints the peak memory.
import { createWriteStream } from 'node:fs';
import { count, desc, gte } from 'drizzle-orm';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';

const url = process.argv[2]!;
const db = openDatabase(url);
const t = db.t;
// The date from which the most recent 100,000 reports start.
const [total] = await db.read.select({ n: count() }).from(t.signalements);
const [boundary] = await db.read
  .select({ at: t.signalements.signalementAt })
  .from(t.signalements)
  .orderBy(desc(t.signalements.signalementAt))
  .limit(1)
  .offset(Math.min(99_999, total!.n - 1));
const after = boundary!.at.toISOString().slice(0, 10);
const [{ n } = { n: 0 }] = await db.read.select({ n: count() }).from(t.signalements).where(gte(t.signalements.signalementAt, new Date(`${after}T00:00:00Z`)));
const app = await buildApp({ config: loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent' }), db });
const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email: 'bench@signalements.local', password: 'mot-de-passe-banc-essai' } });
const cookie = `session=${login.cookies.find((c) => c.name === 'session')!.value}`;
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address() as { port: number };

const baselineMb = process.memoryUsage().rss / 1024 / 1024;
const started = performance.now();
const res = await fetch(`http://127.0.0.1:${address.port}/api/signalements/export/xlsx?signalementAt[after]=${after}`, { headers: { cookie } });
let bytes = 0;
const sink = createWriteStream('/dev/null');
for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
  bytes += chunk.length;
  sink.write(chunk);
}
sink.end();
const seconds = (performance.now() - started) / 1000;
const peakMb = process.resourceUsage().maxRSS / 1024;
console.info(
  `Export xlsx de ${n.toLocaleString('fr-FR')} signalements : ${(bytes / 1024 / 1024).toFixed(1)} Mo en ${seconds.toFixed(1)} s, ` +
    `mémoire maximale du processus (serveur et client compris) : ${peakMb.toFixed(0)} Mo (objectif < 300 Mo ; ` +
    `${baselineMb.toFixed(0)} Mo avant l'export)`,
);
await app.close();
await db.close();
