// The single executable (README « A single executable », docs/decisions/0041-single-executable.md), as a
// developer without a Node toolchain uses it: `npm run package`'s script builds dist/signalements (the client
// is the one `npm run test:e2e` has just built), which is copied alone into an empty temporary folder, with
// no node_modules above it and a PATH without node, then started: SQLite in ./data, migrated and seeded,
// the first administrator printed once; log-in with the second factor, a report, its xlsx export, the
// client; SIGTERM ends it cleanly; a second start reuses the extracted files. Prints the build's line
// (size) and the start-up times, the figures the README quotes.
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateTOTP } from '@oslojs/otp';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/server-process';
import { MINIMAL_REPORT } from '../helpers/signalements';

const ROOT = resolve(import.meta.dirname, '../..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const run = promisify(execFile);

interface Started {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  /** Seconds from the spawn to the first 200 of /api/health. */
  seconds: number;
}

describe('the single executable (npm run package)', () => {
  let dir: string;
  let exe: string;
  let env: Record<string, string>;
  let base: string;
  const children: ChildProcess[] = [];
  const seconds: number[] = [];

  beforeAll(async () => {
    // The packaging script as `npm run package` runs it, on the Node that runs this test.
    const built = await run(process.execPath, ['--import', 'tsx', 'scripts/package.ts'], { cwd: ROOT });
    console.info(built.stdout.trim());
    dir = mkdtempSync(join(tmpdir(), 'signalements-sea-'));
    exe = join(dir, 'signalements');
    copyFileSync(join(ROOT, 'dist', 'signalements'), exe);
    chmodSync(exe, 0o755);
    // Nothing to lean on: no node_modules in the folder or above it, and no node on the PATH.
    for (let up = dir; ; up = dirname(up)) {
      expect(existsSync(join(up, 'node_modules')), up).toBe(false);
      if (dirname(up) === up) break;
    }
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // No HOST: the default, loopback, is what a developer gets.
    env = { PATH: bin, PORT: String(port), PUBLIC_URL: base, LOG_LEVEL: 'warn' };
  }, 300_000);

  afterAll(() => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (seconds.length === 2) {
      console.info(
        `Démarrage de ./signalements (jusqu'à la première réponse de /api/health) : premier ${seconds[0]!.toFixed(1)} s ` +
          `(fichiers écrits dans data/.runtime, base créée, migrée et remplie), suivant ${seconds[1]!.toFixed(1)} s.`,
      );
    }
  });

  async function startExecutable(): Promise<Started> {
    const began = performance.now();
    const child = spawn(exe, [], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    await expect
      .poll(
        async () => {
          if (child.exitCode !== null) throw new Error(`arrêté (${child.exitCode}) :\n${output}`);
          return (await fetch(`${base}/api/health`).catch(() => null))?.status;
        },
        { timeout: 90_000, interval: 50 },
      )
      .toBe(200);
    return { child, output: () => output, exited, seconds: (performance.now() - began) / 1000 };
  }

  it('answers --version and --help in French and refuses an unknown option, writing nothing', async () => {
    const version = await run(exe, ['--version'], { cwd: dir, env });
    expect(version.stdout).toContain(`signalements ${VERSION}`);
    const help = await run(exe, ['--help'], { cwd: dir, env });
    expect(help.stdout).toContain('Utilisation : ./signalements [--help | --version]');
    expect(help.stdout).toContain('HOST=127.0.0.1');
    const wrong = await run(exe, ['--inconnue'], { cwd: dir, env }).catch((error: unknown) => error);
    expect(wrong).toMatchObject({ code: 1, stderr: expect.stringContaining('Option inconnue : --inconnue') });
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });

  it('starts in an empty folder, logs in with the second factor, creates a report, exports it, serves the client, and stops on SIGTERM', async () => {
    const server = await startExecutable();
    seconds.push(server.seconds);
    expect(existsSync(join(dir, 'data', 'signalements.db'))).toBe(true);
    const login = server
      .output()
      .match(/Premier administrateur créé[\s\S]*?e-mail\s+: (\S+)[\s\S]*?mot de passe : (\S+)/);
    expect(login, server.output()).not.toBeNull();
    const [, email, password] = login!;

    const res = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).twoFactor).toBe('enrol');
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const { secret } = (await (await post('/trpc/twoFactor.setup', {})).json()).result.data;
    const enrolled = await post('/trpc/twoFactor.enrol', {
      password,
      code: generateTOTP(decodeBase32IgnorePadding(secret as string), 30, 6),
    });
    expect(enrolled.status).toBe(200);

    const created = await post('/api/signalements', MINIMAL_REPORT);
    expect(created.status).toBe(201);
    const { code } = await created.json();
    // The export runs on its own thread, from the extracted bundle.
    const exported = await fetch(`${base}/api/signalements/export/xlsx`, { headers: { cookie } });
    expect(exported.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await exported.arrayBuffer()) as never);
    expect(workbook.getWorksheet('Signalements')!.getRow(2).getCell(1).value).toBe(code);
    const page = await fetch(`${base}/admin/signalement/list`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');

    // SQLite is served by one process: a second start in the same folder is refused while this one runs.
    const second = await run(exe, [], { cwd: dir, env: { ...env, PORT: '0' } }).catch(
      (error: unknown) => error,
    );
    expect(second).toMatchObject({ code: 1, stderr: expect.stringContaining('un autre serveur') });

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(existsSync(join(dir, 'data', 'signalements.db.pid'))).toBe(false);
  }, 180_000);

  it('starts again from the files it wrote, without printing an administrator', async () => {
    const server = await startExecutable();
    seconds.push(server.seconds);
    expect(server.output()).not.toContain('Premier administrateur');
    expect(readdirSync(join(dir, 'data', '.runtime'))).toHaveLength(1);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 120_000);
});
