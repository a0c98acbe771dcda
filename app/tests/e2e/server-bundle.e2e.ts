// `npm start` runs the bundle `npm run build` writes (dist/server/index.mjs) with plain node: it must
// start from any working directory on an empty database (migrated, seeded, first administrator
// printed), serve the API and the client, and stop cleanly on SIGTERM.
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateTOTP } from '@oslojs/otp';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/server-process';
import { MINIMAL_REPORT } from '../helpers/signalements';

const BUNDLE = resolve(import.meta.dirname, '../../dist/server/index.mjs');

describe('the built server (npm start)', () => {
  let dir: string;
  let child: ChildProcess;
  let output = '';
  let base: string;
  beforeAll(async () => {
    if (!existsSync(BUNDLE)) throw new Error('Serveur non construit : lancez « npm run build ».');
    dir = mkdtempSync(join(tmpdir(), 'signalements-bundle-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // The working directory is the temporary folder: the bundle must find its files by itself.
    child = spawn(process.execPath, ['--enable-source-maps', BUNDLE], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: `file:${join(dir, 'bundle.db')}`,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: base,
        LOG_LEVEL: 'warn',
        METRICS_TOKEN: 'jeton-de-mesure-0123456789',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('migrates, seeds, prints the first administrator once and serves the API, the export and the client', async () => {
    await expect
      .poll(async () => (await fetch(`${base}/api/health`).catch(() => null))?.status, { timeout: 60_000 })
      .toBe(200);
    // The details with the metrics token only (anyone else gets { status }).
    const details = await fetch(`${base}/api/health`, {
      headers: { authorization: 'Bearer jeton-de-mesure-0123456789' },
    });
    expect(await details.json()).toMatchObject({
      status: 'ok',
      database: 'ok',
      writes: 'ok',
      key: 'ok',
      mail: { failed: 0 },
    });
    expect(output).toContain('Premier administrateur créé');
    // The data key of the sources is generated beside the database, owner-only, and announced.
    expect(statSync(join(dir, 'data.key')).mode & 0o777).toBe(0o600);
    expect(output).toContain(`Clé de chiffrement des sources créée dans ${join(dir, 'data.key')}`);
    const login = output.match(/e-mail\s+: (\S+)[\s\S]*?mot de passe : (\S+)/);
    expect(login, output).not.toBeNull();
    const res = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: login![1], password: login![2] }),
    });
    expect(res.status).toBe(200);
    // Reference data comes from the seed (geography read from the project's files).
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    // The administrator owes a second factor: enrolment through tRPC, as the application does it.
    expect((await res.json()).twoFactor).toBe('enrol');
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const { secret } = (await (await post('/trpc/twoFactor.setup', {})).json()).result.data;
    const enrolled = await post('/trpc/twoFactor.enrol', {
      password: login![2],
      code: generateTOTP(decodeBase32IgnorePadding(secret), 30, 6),
    });
    expect(enrolled.status).toBe(200);
    const regions = await (await fetch(`${base}/api/regions`, { headers: { cookie } })).json();
    expect(regions.totalItems).toBe(24);
    // The xlsx export runs in the bundle's own thread file (dist/server/export-thread.mjs).
    const created = await fetch(`${base}/api/signalements`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify(MINIMAL_REPORT),
    });
    expect(created.status).toBe(201);
    const { code } = await created.json();
    const exported = await fetch(`${base}/api/signalements/export/xlsx`, { headers: { cookie } });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('x-total-count')).toBe('1');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await exported.arrayBuffer()) as never);
    expect(workbook.getWorksheet('Signalements')!.getRow(2).getCell(1).value).toBe(code);

    const page = await fetch(`${base}/admin/signalements`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
  });

  it('sends the client precompressed: brotli by Accept-Encoding, index.html no-cache with its loading state, assets immutable', async () => {
    await expect
      .poll(async () => (await fetch(`${base}/api/health`).catch(() => null))?.status, { timeout: 60_000 })
      .toBe(200);
    // fetch decodes the body itself; the headers say what travelled.
    const page = await fetch(`${base}/admin/signalement/list`, { headers: { 'accept-encoding': 'br' } });
    expect(page.headers.get('content-encoding')).toBe('br');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('vary')).toMatch(/accept-encoding/i);
    const html = await page.text();
    expect(html).toContain('Chargement...');
    const script = /src="(\/admin\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const br = await fetch(`${base}${script}`, { headers: { 'accept-encoding': 'br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const gz = await fetch(`${base}${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    const plain = await fetch(`${base}${script}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(await br.text());
  });

  it('carries drizzle-orm inside its files and loads every other package from node_modules', () => {
    // Under Node 24 a module of a package read from node_modules reads that package's package.json again,
    // drizzle-orm's being 179 KB for its 448 files (docs/decisions/0050): bundled, it is read once.
    const folder = resolve(BUNDLE, '..');
    for (const file of readdirSync(folder).filter((name) => name.endsWith('.mjs'))) {
      const code = readFileSync(join(folder, file), 'utf8');
      // Import statements start a line in esbuild's output (doc comments quoting an import do not).
      expect(code, file).not.toMatch(/^import\b[^\n]*["']drizzle-orm/m);
      expect(code, file).not.toMatch(/\bimport\(["']drizzle-orm/);
    }
    expect(readFileSync(BUNDLE, 'utf8')).toMatch(/^import\b[^\n]*from ["']fastify["'];$/m);
  });

  it('stops cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
