// A PostgreSQL cluster of a test's own (initdb into a temporary folder, on a free port), for the tests
// that stop and restart PostgreSQL under a running server. As root, the binaries run as the postgres user
// (PostgreSQL refuses to run as root).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './server-process';

const run = promisify(execFile);

export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** Whether a cluster can be made here; under CI their absence fails the run, elsewhere a visible warning. */
export function clusterBinariesAvailable(): boolean {
  if (existsSync(join(PG_BIN, 'initdb')) && existsSync(join(PG_BIN, 'pg_ctl'))) return true;
  if (process.env.CI)
    throw new Error(`Binaires PostgreSQL introuvables sous CI (${PG_BIN}, variable PG_BIN).`);
  console.warn(
    `\n⚠️  Binaires PostgreSQL introuvables (${PG_BIN}, variable PG_BIN) : test de redémarrage ignoré.\n`,
  );
  return false;
}

export interface PgCluster {
  port: number;
  /** The URL of a database of this cluster. */
  url(database: string): string;
  start(): Promise<void>;
  /** `fast`: what a restart does (sessions terminated, a checkpoint); `immediate`: for clean-up. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Stops it if running and deletes its folder. */
  destroy(): Promise<void>;
}

const asPostgres = (command: string, args: string[]) =>
  process.getuid?.() === 0 ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args);

/**
 * The cluster's folder. As root it is made by the postgres user in its own home, so that no folder above it
 * has to let that user through: a system temporary folder is not always open to other users (one machine's
 * /tmp was 0700). Otherwise the test's own temporary folder.
 */
async function clusterFolder(): Promise<string> {
  if (process.getuid?.() !== 0) return mkdtempSync(join(tmpdir(), 'signalements-pg-'));
  const home = (await run('getent', ['passwd', 'postgres'])).stdout.split(':')[5]?.trim();
  if (!home) throw new Error('Utilisateur postgres introuvable (getent passwd postgres).');
  const made = await asPostgres('mktemp', ['-d', join(home, 'signalements-pg-XXXXXXXX')]);
  return made.stdout.trim();
}

export async function createCluster(): Promise<PgCluster> {
  const dir = await clusterFolder();
  const data = join(dir, 'data');
  const port = await freePort();
  await asPostgres(join(PG_BIN, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '-A',
    'trust',
    '--no-sync',
    '-E',
    'UTF8',
  ]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`;
  const ctl = (args: string[]) => asPostgres(join(PG_BIN, 'pg_ctl'), ['-D', data, ...args]);
  let running = false;
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async start() {
      await ctl(['-l', join(dir, 'log'), '-o', options, '-w', 'start']);
      running = true;
    },
    async stop(mode = 'fast') {
      await ctl(['-m', mode, '-w', 'stop']);
      running = false;
    },
    async destroy() {
      if (running) await ctl(['-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
