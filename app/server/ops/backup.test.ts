// Backups under write load and their restore (decision 0017, "Backups"), on both engines: every report
// acknowledged before the backup started is in the restored copy, whose sources read with the key sealed in
// it; the backup folder alone opens nothing; a running instance, a damaged file and a backup of the other
// engine are refused; the last N are kept. Refusals of damaged or mismatched backups: restore.test.ts.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { inArray } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { dropWithRestoreCopies, PG_ADMIN_URL, testEngines } from '#tests/helpers/db';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { MINIMAL_REPORT } from '#tests/helpers/signalements';
import { loadConfig } from '../config';
import { openDatabase, type Engine } from '../db/client';
import { createUser } from '../domains/utilisateurs/service';
import { start, type Running } from '../start';
import { writeKeyFile } from '../crypto/data-key';
import { generateDataKey } from '../crypto/cipher';
import { BackupError, backupDatabase, pidFile, pruneBackups, runningServerPid } from './backup';
import { restoreDatabase } from './restore';
import { generateRecipient, parseIdentity, sealTo } from './seal';

const USER = { email: 'sauvegarde@example.mg', password: 'Vohitra-tsara-7824-mandry!' };
const SOURCE = 'Rasoanaivo Source-Sauvegardée';
// The operator's key pair: the server holds the public key only.
const PAIR = generateRecipient();
const IDENTITY = { identity: parseIdentity(PAIR.privatePem) };
const PASSPHRASE = 'une phrase de passe gardée hors du serveur';

describe.each(await testEngines())('backup and restore on %s', (engine: Engine) => {
  const dir = mkdtempSync(join(tmpdir(), 'signalements-backup-'));
  const databases: string[] = [];
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await dropWithRestoreCopies(databases);
  });

  /** Settings of an instance: its database (empty) and key file, in their own folder. */
  async function instance(name: string): Promise<Record<string, string>> {
    const folder = join(dir, name);
    if (engine === 'sqlite') {
      return {
        DATABASE_URL: `file:${join(folder, 'signalements.db')}`,
        BACKUP_DIR: join(dir, 'sauvegardes'),
        BACKUP_RECIPIENT: PAIR.recipient,
      };
    }
    const database = `signalements_sauvegarde_${randomBytes(4).toString('hex')}`;
    databases.push(database);
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${database}`;
    if (name === 'origine') {
      const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
      await admin.connect();
      await admin.query(`create database ${database}`);
      await admin.end();
    }
    return {
      DATABASE_URL: url.toString(),
      DATA_KEY_FILE: join(folder, 'data.key'),
      BACKUP_DIR: join(dir, 'sauvegardes'),
      BACKUP_RECIPIENT: PAIR.recipient,
    };
  }

  async function serve(env: Record<string, string>): Promise<Running> {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      return await start({ ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
    } finally {
      vi.restoreAllMocks();
    }
  }

  async function logIn(running: Running): Promise<string> {
    const res = await running.app.inject({ method: 'POST', url: '/api/login', payload: USER });
    expect(res.statusCode).toBe(200);
    return res.cookies.find((c) => c.name === 'session')!.value;
  }

  it('backs up while reports are written, and the restored copy holds every report acknowledged before', async () => {
    const origin = await instance('origine');
    const running = await serve(origin);
    await createUser(running.db, {
      email: USER.email,
      nomPrenom: 'Rabe Sauvegarde',
      roleCode: 'ROLE_GESTIONNAIRE',
      password: USER.password,
    });
    const cookie = `session=${await logIn(running)}`;
    const create = () =>
      running.app.inject({
        method: 'POST',
        url: '/api/signalements',
        headers: { cookie, ...SAME_ORIGIN },
        payload: MINIMAL_REPORT,
      });
    const first = await create();
    const withSource = first.json().code as string;
    const source = await running.app.inject({
      method: 'POST',
      url: '/api/sources',
      headers: { cookie, ...SAME_ORIGIN },
      payload: { signalement: `/api/signalements/${withSource}`, nomPrenom: SOURCE },
    });
    expect(source.statusCode).toBe(201);

    // Three writers that never stop until told to; each acknowledged code is noted with its time.
    const acked: Array<{ code: string; at: number }> = [{ code: withSource, at: Date.now() }];
    let writing = true;
    const writer = async () => {
      while (writing) {
        const res = await create();
        if (res.statusCode === 201) acked.push({ code: res.json().code, at: Date.now() });
      }
    };
    const writers = [writer(), writer(), writer()];
    await vi.waitUntil(() => acked.length >= 40, { timeout: 30_000 });

    // Refused while the server runs.
    await expect(restoreDatabase(loadConfig(origin), join(dir, 'absente.db'), IDENTITY)).rejects.toThrow(
      BackupError,
    );
    const startedAt = Date.now();
    const before = acked.filter((a) => a.at < startedAt).map((a) => a.code);
    const backup = await backupDatabase(loadConfig(origin));
    // Writes went on during the backup and after it.
    await vi.waitUntil(() => acked.length > before.length + 5, { timeout: 30_000 });
    writing = false;
    await Promise.all(writers);

    expect(backup.file).toMatch(
      engine === 'sqlite'
        ? /signalements-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.sqlite\.sauvegarde$/
        : /\.postgres\.sauvegarde$/,
    );
    expect(statSync(backup.file).mode & 0o777).toBe(0o600);

    // The backup folder alone opens nothing: one sealed file, no key beside it, and neither the data key
    // (raw, base64 or hex) nor any value stored in clear in the database (an e-mail) in its bytes.
    expect(readdirSync(dirname(backup.file))).toEqual([backup.file.split('/').pop()]);
    const sealed = readFileSync(backup.file);
    const dataKey = readFileSync(join(dir, 'origine', 'data.key'), 'utf8').trim();
    const raw = Buffer.from(dataKey, 'base64');
    expect(raw.length).toBe(32);
    for (const needle of [
      raw,
      Buffer.from(dataKey),
      Buffer.from(raw.toString('hex')),
      Buffer.from(USER.email),
    ]) {
      expect(sealed.includes(needle)).toBe(false);
    }
    // The wrong private key, and a passphrase for a backup sealed for a public key, are refused.
    const stranger = { identity: parseIdentity(generateRecipient().privatePem) };
    await expect(
      restoreDatabase(loadConfig(await instance('etranger')), backup.file, stranger),
    ).rejects.toThrow(/Cette clé privée n'ouvre pas/);
    await expect(
      restoreDatabase(loadConfig(await instance('etranger')), backup.file, { passphrase: PASSPHRASE }),
    ).rejects.toThrow(/n'est pas scellée par une phrase de passe/);

    // A restore into the running instance is refused, whatever the file.
    await expect(restoreDatabase(loadConfig(origin), backup.file, IDENTITY)).rejects.toThrow(
      engine === 'sqlite' ? /Le serveur semble en marche/ : /en cours d'utilisation/,
    );
    await running.close();

    // Into a fresh instance (another machine after a lost disk): the key comes back with the database.
    const target = await instance('cible');
    const restored = await restoreDatabase(loadConfig(target), backup.file, IDENTITY);
    expect(restored.keyRestored).toBe(true);
    const again = await serve(target);
    try {
      const s = again.db.t.signalements;
      const found = await again.db.read.select({ code: s.code }).from(s).where(inArray(s.code, before));
      expect(found.map((r) => r.code).sort()).toEqual([...before].sort());
      const sessionCookie = `session=${await logIn(again)}`;
      const sources = await again.app.inject({
        url: `/api/signalements/${withSource}/source`,
        headers: { cookie: sessionCookie },
      });
      expect(sources.json().sources[0].nomPrenom).toBe(SOURCE);
    } finally {
      await again.close();
    }

    // Restoring again keeps the database it replaces.
    const second = await restoreDatabase(loadConfig(target), backup.file, IDENTITY);
    expect(second.keptAside).not.toBeNull();
    expect(second.keyRestored).toBe(false);
    if (engine === 'sqlite') expect(existsSync(second.keptAside!)).toBe(true);
  }, 120_000);

  it('refuses a damaged file and a backup of the other engine, in French', async () => {
    const target = await instance('refus');
    const damaged = join(dir, 'abimee.sauvegarde');
    writeFileSync(damaged, 'pas une base de données');
    await expect(restoreDatabase(loadConfig(target), damaged, IDENTITY)).rejects.toThrow(
      /n'est pas une sauvegarde valide/,
    );
    // An unsealed backup of an earlier version (a .db or .dump with its .key in clear) is not opened.
    const old = join(dir, engine === 'sqlite' ? 'ancienne.db' : 'ancienne.dump');
    writeFileSync(old, 'x');
    await expect(restoreDatabase(loadConfig(target), old, IDENTITY)).rejects.toThrow(/non scellée/);
    // A sealed backup of the other engine.
    const otherEngine = engine === 'sqlite' ? 'postgres' : 'sqlite';
    const other = join(dir, 'autre.sauvegarde');
    await sealTo(other, otherEngine, { passphrase: PASSPHRASE }, (async function* () {})());
    await expect(restoreDatabase(loadConfig(target), other, { passphrase: PASSPHRASE })).rejects.toThrow(
      /DATABASE_URL désigne/,
    );
  });

  it.runIf(engine === 'sqlite')(
    'writes into a folder only its owner can open, even one that existed wider',
    async () => {
      const folder = join(dir, 'large');
      mkdirSync(folder, { mode: 0o755 });
      chmodSync(folder, 0o755);
      const source = join(dir, 'petite', 'signalements.db');
      mkdirSync(dirname(source), { recursive: true });
      const db = openDatabase(`file:${source}`, { readWorkers: 0 });
      await db.migrate();
      await db.close();
      writeKeyFile(join(dir, 'petite', 'data.key'), generateDataKey());
      const settings = { DATABASE_URL: `file:${source}`, BACKUP_DIR: folder, BACKUP_PASSPHRASE: PASSPHRASE };
      const done = await backupDatabase(loadConfig(settings));
      expect(statSync(folder).mode & 0o777).toBe(0o700);
      expect(statSync(done.file).mode & 0o777).toBe(0o600);
      // The process's own umask is given back.
      const mask = process.umask();
      expect(mask).not.toBe(0o077);
      // No copy in clear is left anywhere (the copy sealed is taken beside the database, then removed).
      expect(readdirSync(join(dir, 'petite')).filter((name) => name.includes('sauvegarde'))).toEqual([]);
      // The database itself is not a backup.
      await expect(restoreDatabase(loadConfig(settings), source, { passphrase: PASSPHRASE })).rejects.toThrow(
        /n'est pas une sauvegarde valide/,
      );
    },
  );

  it.runIf(engine === 'sqlite' && process.platform === 'linux')(
    'takes a pid file naming a live program that is not Node.js (a reboot reused the number) as stale',
    async () => {
      const url = `file:${join(dir, 'pid', 'signalements.db')}`;
      mkdirSync(join(dir, 'pid'));
      const other = spawn('sleep', ['30']);
      try {
        writeFileSync(pidFile(url), `${other.pid}\n`);
        expect(runningServerPid(url)).toBeNull();
        writeFileSync(pidFile(url), `${process.pid}\n`);
        expect(runningServerPid(url)).toBe(process.pid);
      } finally {
        other.kill();
      }
    },
  );

  it('keeps the last BACKUP_KEEP backups, pruning unsealed ones of earlier versions with their keys, and touches no other file', () => {
    const folder = mkdtempSync(join(dir, 'garde-'));
    for (const stamp of ['2026-01-01T00-00-00Z', '2026-01-02T00-00-00Z']) {
      writeFileSync(join(folder, `signalements-${stamp}.db`), '');
      writeFileSync(join(folder, `signalements-${stamp}.key`), '');
    }
    writeFileSync(join(folder, 'signalements-2026-01-03T00-00-00Z.sqlite.sauvegarde'), '');
    writeFileSync(join(folder, 'signalements-2026-01-04T00-00-00Z.postgres.sauvegarde'), '');
    writeFileSync(join(folder, 'notes.txt'), '');
    pruneBackups(folder, 2);
    expect(readdirSync(folder).sort()).toEqual([
      'notes.txt',
      'signalements-2026-01-03T00-00-00Z.sqlite.sauvegarde',
      'signalements-2026-01-04T00-00-00Z.postgres.sauvegarde',
    ]);
  });
});
