// Start-up failures: each prints one French line naming the setting and the cause on standard
// error, nothing else, and exits with code 1 — the real entry point, in a child process.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresAvailable } from '#tests/helpers/db';
import { serverArgv } from '#tests/helpers/server-process';
import { describeDatabase, explainStartupFailure } from './startup-errors';

const root = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'signalements-startup-'));
const mounts: string[] = [];

interface Outcome {
  code: number | null;
  stderr: string;
  stdout: string;
}

/** Runs the server with these settings; a server that wrongly starts is killed after 60 s. */
function run(env: Record<string, string>): Promise<Outcome> {
  return new Promise((done) => {
    const child = spawn(process.execPath, serverArgv(), {
      cwd: root,
      env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(killer);
      done({ code, stderr, stdout });
    });
  });
}

function expectOneLine(outcome: Outcome, line: string) {
  expect(outcome.code).toBe(1);
  expect(outcome.stderr.trimEnd().split('\n')).toEqual([line]);
}

/**
 * A small tmpfs (disk full, read-only path). Mounting needs root, which the CI machine has; elsewhere the
 * cases are skipped with a warning, under CI their absence fails.
 */
function mountTmpfs(name: string, options: string): string | null {
  const target = join(dir, name);
  mkdirSync(target);
  const res = spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', target], { encoding: 'utf8' });
  if (res.status !== 0) {
    if (process.env.CI) throw new Error(`mount tmpfs impossible sous CI : ${res.stderr}`);
    console.warn(`\n⚠️  mount tmpfs impossible (${res.stderr.trim()}) : cas ignoré.\n`);
    return null;
  }
  mounts.push(target);
  return target;
}

describe('start-up failures', () => {
  afterAll(() => {
    for (const target of mounts) spawnSync('umount', [target]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('PostgreSQL unreachable', async () => {
    if (!(await postgresAvailable())) return;
    const url = 'postgres://postgres:secret@127.0.0.1:1/signalements';
    expectOneLine(
      await run({ DATABASE_URL: url }),
      'Démarrage impossible (DATABASE_URL) : la base PostgreSQL « signalements » sur 127.0.0.1:1 — serveur injoignable (connexion refusée : est-il démarré, sur ce port ?).',
    );
  });

  it('a PostgreSQL that accepts the connection but never answers: no hang, DATABASE_CONNECT_TIMEOUT_SECONDS', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const { port } = silent.address() as { port: number };
    try {
      expectOneLine(
        await run({
          DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/signalements`,
          DATABASE_CONNECT_TIMEOUT_SECONDS: '1',
        }),
        `Démarrage impossible (DATABASE_URL) : la base PostgreSQL « signalements » sur 127.0.0.1:${port} — aucune réponse du serveur en 1 s (DATABASE_CONNECT_TIMEOUT_SECONDS).`,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('an unknown PostgreSQL database', async () => {
    if (!(await postgresAvailable())) return;
    expectOneLine(
      await run({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/signalements_absente_0' }),
      "Démarrage impossible (DATABASE_URL) : la base PostgreSQL « signalements_absente_0 » sur 127.0.0.1:5432 — cette base n'existe pas (créez-la avec « createdb » ou corrigez son nom).",
    );
  });

  it('a PostgreSQL role refused at authentication, without printing the password', async () => {
    if (!(await postgresAvailable())) return;
    const outcome = await run({
      DATABASE_URL: 'postgres://personne_inconnue:mot-de-passe-secret@127.0.0.1:5432/postgres',
    });
    expectOneLine(
      outcome,
      "Démarrage impossible (DATABASE_URL) : la base PostgreSQL « postgres » sur 127.0.0.1:5432 — authentification refusée pour l'utilisateur « personne_inconnue ».",
    );
    expect(outcome.stderr + outcome.stdout).not.toContain('mot-de-passe-secret');
  });

  it('a SQLite file on a read-only file system', async () => {
    const target = mountTmpfs('ro', 'ro,size=1m');
    if (!target) return;
    expectOneLine(
      await run({ DATABASE_URL: `file:${join(target, 'signalements.db')}` }),
      // The file is created (0600) by the server before SQLite opens it: the system's EROFS names the place.
      `Démarrage impossible (DATABASE_URL) : le fichier SQLite ${join(target, 'signalements.db')} — emplacement en lecture seule (${target}).`,
    );
  });

  it('a SQLite file whose folder cannot be created (read-only path)', async () => {
    const target = mountTmpfs('ro-dir', 'ro,size=1m');
    if (!target) return;
    expectOneLine(
      await run({ DATABASE_URL: `file:${join(target, 'data', 'signalements.db')}` }),
      `Démarrage impossible (DATABASE_URL) : le fichier SQLite ${join(target, 'data', 'signalements.db')} — le dossier ne peut pas être créé (emplacement en lecture seule ou absent) (${join(target, 'data')}).`,
    );
  });

  it('a SQLite file on a full disk', async () => {
    const target = mountTmpfs('full', 'size=256k');
    if (!target) return;
    expectOneLine(
      await run({ DATABASE_URL: `file:${join(target, 'signalements.db')}` }),
      `Démarrage impossible (DATABASE_URL) : le fichier SQLite ${join(target, 'signalements.db')} — disque plein, libérez de la place.`,
    );
  });

  it('a port already in use', async () => {
    const busy = createServer();
    await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done));
    const { port } = busy.address() as { port: number };
    try {
      expectOneLine(
        await run({ DATABASE_URL: `file:${join(dir, 'port.db')}`, PORT: String(port) }),
        `Démarrage impossible (PORT) : l'adresse 127.0.0.1:${port} est déjà utilisée par un autre programme.`,
      );
    } finally {
      busy.close();
    }
  });

  it('names a PostgreSQL database without its password, and an unknown error by its innermost message', () => {
    expect(describeDatabase('postgres://u:tr%C3%A8s-secret@db.example.mg:6543/prod')).toBe(
      'la base PostgreSQL « prod » sur db.example.mg:6543',
    );
    const inner = new Error('quelque chose de précis\nsur deux lignes');
    const outer = new Error('Failed query: CREATE SCHEMA x\nparams: ', { cause: inner });
    expect(explainStartupFailure(outer, {})).toBe('Démarrage impossible : quelque chose de précis');
  });
});
