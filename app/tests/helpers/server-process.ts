// The real entry point (server/index.ts, bundled as `npm start` runs it) in a child process, on a free loopback
// port: for the tests that kill, stop or multiply server processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

export interface ServerProcess {
  base: string;
  child: ChildProcess;
  /** Everything it printed, standard output and error together. */
  output(): string;
}

/**
 * The arguments of `node` that run the server: as the build bundles it, when the test run bundled it
 * (tests/server-bundle.ts), else its sources through tsx. Run from the project's root.
 */
export function serverArgv(): string[] {
  const bundle = process.env.SERVER_BUNDLE_DIR;
  return bundle ? [resolve(bundle, 'index.mjs')] : ['--import', 'tsx', 'server/index.ts'];
}

/** Starts the server with these settings (PORT, HOST and PUBLIC_URL are set here); does not wait for it. */
export async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, serverArgv(), {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { base, child, output: () => output };
}

/** Waits until /api/health answers 200; fails with the server's output if it exits or takes too long. */
export async function waitHealthy(server: ServerProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await fetch(`${server.base}/api/health`).catch(() => null))?.status !== 200) {
    if (Date.now() > deadline || server.child.exitCode !== null)
      throw new Error(`serveur non démarré :\n${server.output()}`);
    await new Promise((done) => setTimeout(done, 250));
  }
}

/** SIGKILL, as a power-less crash of the process: no handler runs. Resolves once it is gone. */
export async function killHard(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const gone = new Promise<void>((done) => server.child.once('exit', () => done()));
  server.child.kill('SIGKILL');
  await gone;
}
