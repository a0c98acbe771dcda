// What a restore refuses (decision 0017, "Backups"), on both engines, each time with the live database, its
// reports and its key file left exactly as they were and no temporary database left behind: a wrong
// passphrase, one changed byte, a cut file, a database cut inside an intact seal, a key that does not open
// the database or its internal notes, a schema without one of its triggers. And what a backup refuses: no
// sealing key, no data key, a key that does not open the notes.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dropWithRestoreCopies, PG_ADMIN_URL, testEngines } from '#tests/helpers/db';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { MINIMAL_REPORT } from '#tests/helpers/signalements';
import { loadConfig } from '../config';
import { createCipher, formatDataKey, generateDataKey } from '../crypto/cipher';
import { dataKeyPath } from '../crypto/data-key';
import { NOTE_TEXT } from '../crypto/notes';
import { type Engine } from '../db/client';
import { createUser } from '../domains/utilisateurs/service';
import { PROJECT_ROOT } from '../paths';
import { start } from '../start';
import { backupDatabase, backupPayload, type Manifest } from './backup';
import { restoreDatabase } from './restore';
import { sealTo } from './seal';
import { unseal } from './seal-open';

const USER = { email: 'restauration@example.mg', password: 'Vohitra-tsara-7824-mandry!' };
const PASSPHRASE = 'une phrase de passe gardée hors du serveur';
const UNLOCK = { passphrase: PASSPHRASE };

describe.each(await testEngines())('restore refusals on %s', (engine: Engine) => {
  const dir = mkdtempSync(join(tmpdir(), 'signalements-restauration-'));
  const databases: string[] = [];
  let origin: Record<string, string>;
  let good: string;

  async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: PG_ADMIN_URL });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  }

  /** Settings of an instance in its own folder (PostgreSQL: a new empty database). */
  async function instance(name: string): Promise<Record<string, string>> {
    const folder = join(dir, name);
    const common = { BACKUP_DIR: join(dir, `sauvegardes-${name}`), BACKUP_PASSPHRASE: PASSPHRASE };
    if (engine === 'sqlite') return { ...common, DATABASE_URL: `file:${join(folder, 'signalements.db')}` };
    const database = `signalements_restauration_${randomBytes(4).toString('hex')}`;
    databases.push(database);
    await admin((c) => c.query(`create database ${database}`));
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${database}`;
    return { ...common, DATABASE_URL: url.toString(), DATA_KEY_FILE: join(folder, 'data.key') };
  }

  /** Starts the instance once: migrated, its key file written, one user and three reports, one with a note. */
  async function populate(env: Record<string, string>): Promise<void> {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const running = await start({ ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' }).finally(() =>
      vi.restoreAllMocks(),
    );
    try {
      await createUser(running.db, {
        email: USER.email,
        nomPrenom: 'Rabe Restauration',
        roleCode: 'ROLE_GESTIONNAIRE',
        password: USER.password,
      });
      const login = await running.app.inject({ method: 'POST', url: '/api/login', payload: USER });
      const cookie = `session=${login.cookies.find((c) => c.name === 'session')!.value}`;
      for (let i = 0; i < 3; i++) {
        const res = await running.app.inject({
          method: 'POST',
          url: '/api/signalements',
          headers: { cookie, ...SAME_ORIGIN },
          payload: MINIMAL_REPORT,
        });
        expect(res.statusCode).toBe(201);
        if (i > 0) continue;
        const note = await running.app.inject({
          method: 'POST',
          url: `/api/signalements/${res.json().code}/notes`,
          headers: { cookie, ...SAME_ORIGIN },
          payload: { texte: 'Note à restaurer' },
        });
        expect(note.statusCode).toBe(201);
      }
    } finally {
      await running.close();
    }
  }

  /** What must not change when a restore is refused: the database's reports (and bytes), the key file. */
  async function liveState(env: Record<string, string>): Promise<unknown> {
    const key = readFileSync(dataKeyPath(loadConfig(env)), 'utf8');
    if (engine === 'sqlite') {
      const file = env.DATABASE_URL!.replace(/^file:/, '');
      const conn = new Sqlite(file, { readonly: true });
      // eslint-disable-next-line no-restricted-syntax -- a bare better-sqlite3 connection, not the query builder
      const reports = conn.prepare('select count(*) as n from signalements').pluck().get();
      conn.close();
      return {
        key,
        reports,
        bytes: createHash('sha256').update(readFileSync(file)).digest('hex'),
        files: readdirSync(join(file, '..')).sort(),
      };
    }
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    const reports = (await client.query('select count(*)::int as n from signalements')).rows;
    await client.end();
    const name = new URL(env.DATABASE_URL!).pathname.slice(1);
    const others = await admin((c) =>
      c.query("select datname from pg_database where datname like $1 || '%' order by 1", [name]),
    );
    return { key, reports, databases: others.rows };
  }

  /** Opens a sealed backup, lets `change` alter its manifest or database, and seals it again (intact seal). */
  async function reseal(
    from: string,
    name: string,
    change: (manifest: Manifest, body: Buffer) => [Manifest, Buffer],
  ): Promise<string> {
    const pieces: Buffer[] = [];
    for await (const piece of unseal(from, UNLOCK)) pieces.push(piece);
    const all = Buffer.concat(pieces);
    const length = all.readUInt32BE(0);
    const [manifest, body] = change(
      JSON.parse(all.subarray(4, 4 + length).toString('utf8')) as Manifest,
      all.subarray(4 + length),
    );
    const to = join(dir, name);
    await sealTo(to, engine, UNLOCK, backupPayload(manifest, [body]));
    return to;
  }

  async function refusedUntouched(
    file: string,
    message: RegExp,
    unlock: { passphrase?: string } = UNLOCK,
  ): Promise<void> {
    const before = await liveState(origin);
    await expect(restoreDatabase(loadConfig(origin), file, unlock)).rejects.toThrow(message);
    expect(await liveState(origin)).toEqual(before);
  }

  beforeAll(async () => {
    origin = await instance('origine');
    await populate(origin);
    good = (await backupDatabase(loadConfig(origin))).file;
  }, 60_000);

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await dropWithRestoreCopies(databases);
  });

  it('refuses to back up without BACKUP_PASSPHRASE or BACKUP_RECIPIENT, in French', async () => {
    const { BACKUP_PASSPHRASE: _, ...unsealed } = origin;
    await expect(backupDatabase(loadConfig(unsealed))).rejects.toThrow(
      /Sauvegarde refusée : définissez BACKUP_RECIPIENT .* ou BACKUP_PASSPHRASE/,
    );
  });

  it('refuses a backup that cannot find its data key, or whose key does not open the database, and writes nothing', async () => {
    const folder = join(dir, 'sans-cle');
    const missing = { ...origin, DATA_KEY_FILE: join(folder, 'absente.key'), BACKUP_DIR: folder };
    await expect(backupDatabase(loadConfig(missing))).rejects.toThrow(
      /Clé de chiffrement introuvable .*Sauvegarde impossible/,
    );
    const wrong = { ...origin, DATA_KEY: formatDataKey(generateDataKey()), BACKUP_DIR: folder };
    await expect(backupDatabase(loadConfig(wrong))).rejects.toThrow(
      /ne correspond pas à cette base : sauvegarde refusée/,
    );
    expect(readdirSync(folder)).toEqual([]);
  });

  it.runIf(engine === 'postgres')(
    'finds the key file of PostgreSQL from the project folder, wherever the command runs',
    () => {
      vi.spyOn(process, 'cwd').mockReturnValue(tmpdir());
      try {
        expect(dataKeyPath({ DATABASE_URL: origin.DATABASE_URL! })).toBe(
          join(PROJECT_ROOT, 'data', 'data.key'),
        );
      } finally {
        vi.restoreAllMocks();
      }
    },
  );

  it('refuses a wrong passphrase', async () => {
    await refusedUntouched(good, /Phrase de passe incorrecte/, { passphrase: 'une autre phrase de passe' });
  });

  it('refuses a backup with one byte changed, in its header, its MAC or its content', async () => {
    const bytes = readFileSync(good);
    for (const at of [
      20,
      8 + 4 + bytes.readUInt32BE(8) + 5,
      Math.floor(bytes.length / 2),
      bytes.length - 1,
    ]) {
      const flipped = Buffer.from(bytes);
      flipped[at]! ^= 0x01;
      const file = join(dir, `modifiee-${at}.sauvegarde`);
      writeFileSync(file, flipped);
      await refusedUntouched(file, /(modifiée|incorrecte)/);
    }
  });

  it('refuses a truncated backup', async () => {
    const size = readFileSync(good).length;
    for (const keep of [Math.floor(size * 0.9), size - 16, 30]) {
      const file = join(dir, `tronquee-${keep}.sauvegarde`);
      writeFileSync(file, readFileSync(good));
      truncateSync(file, keep);
      await refusedUntouched(file, /tronquée/);
    }
  });

  it('refuses a database cut at 90% inside an intact seal, leaving the live database and its reports untouched', async () => {
    const cut = await reseal(good, 'coupee.sauvegarde', (manifest, body) => [
      manifest,
      body.subarray(0, Math.floor(body.length * 0.9)),
    ]);
    await refusedUntouched(cut, /n'a pas été touchée/);
  });

  it('refuses a backup whose key does not open its database, before anything is replaced', async () => {
    const other = await reseal(good, 'autre-cle.sauvegarde', (manifest, body) => [
      { ...manifest, dataKey: formatDataKey(generateDataKey()) },
      body,
    ]);
    await refusedUntouched(
      other,
      /clé de chiffrement de la sauvegarde ne correspond pas.*n'a pas été touchée/,
    );
    // DATA_KEY set to another key than the backup's: refused too (the server would not start).
    const before = await liveState(origin);
    await expect(
      restoreDatabase(loadConfig({ ...origin, DATA_KEY: formatDataKey(generateDataKey()) }), good, UNLOCK),
    ).rejects.toThrow(/n'est pas celle de DATA_KEY/);
    expect(await liveState(origin)).toEqual(before);
  });

  it('refuses to back up, and to restore, a database whose notes its key does not open', async () => {
    // A note sealed under another key (a rotation gone wrong), its verifier intact.
    const sealedElsewhere = createCipher(generateDataKey()).encrypt('Autre clé', NOTE_TEXT, 'NOT-AUTR-0001');
    const copy = await instance('notes-autre-cle');
    await restoreDatabase(loadConfig(copy), good, UNLOCK);
    const update = 'update report_notes set texte = $1';
    if (engine === 'sqlite') {
      const conn = new Sqlite(copy.DATABASE_URL!.replace(/^file:/, ''));
      conn.prepare(update.replace('$1', '?')).run(sealedElsewhere);
      conn.close();
    } else {
      const client = new pg.Client({ connectionString: copy.DATABASE_URL });
      await client.connect();
      await client.query(update, [sealedElsewhere]);
      await client.end();
    }
    await expect(backupDatabase(loadConfig(copy))).rejects.toThrow(
      /n'ouvre pas les notes internes de cette base : sauvegarde refusée/,
    );
    if (engine !== 'sqlite') return;
    // The same database inside an intact seal (the body of a SQLite backup is the database file).
    const body = readFileSync(copy.DATABASE_URL!.replace(/^file:/, ''));
    const damaged = await reseal(good, 'notes-autre-cle.sauvegarde', (manifest) => [manifest, body]);
    await refusedUntouched(
      damaged,
      /n'ouvre pas ses notes internes : restauration refusée.*n'a pas été touchée/,
    );
  }, 60_000);

  it('refuses a backup whose schema lacks a trigger of the migrations', async () => {
    const copy = await instance('sans-declencheur');
    await restoreDatabase(loadConfig(copy), good, UNLOCK);
    if (engine === 'sqlite') {
      const conn = new Sqlite(copy.DATABASE_URL!.replace(/^file:/, ''));
      conn.exec('drop trigger signalements_day_counts_ai');
      conn.close();
    } else {
      const client = new pg.Client({ connectionString: copy.DATABASE_URL });
      await client.connect();
      await client.query('drop trigger signalements_day_counts_ai on signalements');
      await client.end();
    }
    const damaged = (await backupDatabase(loadConfig(copy))).file;
    await refusedUntouched(
      damaged,
      /schéma de la sauvegarde diffère .*signalements_day_counts_ai.*n'a pas été touchée/,
    );
  }, 60_000);

  it('restores an intact backup after all those refusals', async () => {
    const result = await restoreDatabase(loadConfig(origin), good, UNLOCK);
    expect(result.keptAside).not.toBeNull();
    expect(result.keyRestored).toBe(false);
    // Nothing staged is left beside the database (a -wal of the staged copy would be a trap).
    if (engine === 'sqlite')
      expect(readdirSync(join(dir, 'origine')).filter((name) => name.includes('.restauration-'))).toEqual([]);
  });

  it.runIf(engine === 'postgres')(
    'prints the SQL that puts the live database back when the second rename and its undo both fail',
    async () => {
      const before = await liveState(origin);
      const name = new URL(origin.DATABASE_URL!).pathname.slice(1);
      // PostgreSQL lost between the two renames: every rename after the first one fails.
      const query = pg.Client.prototype.query;
      let renames = 0;
      vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
        this: pg.Client,
        ...args: unknown[]
      ) {
        if (typeof args[0] === 'string' && /^alter database .* rename to /.test(args[0]) && ++renames > 1) {
          return Promise.reject(new Error('Connection terminated unexpectedly'));
        }
        return (query as (...a: unknown[]) => unknown).apply(this, args);
      } as never);
      // Another month: the name kept aside is cut at 63 bytes, through its date (restore.ts).
      let message = '';
      try {
        await restoreDatabase(
          loadConfig(origin),
          good,
          UNLOCK,
          new Date(Date.now() + 40 * 24 * 3600_000),
        ).catch((error: Error) => {
          message = error.message;
        });
      } finally {
        vi.restoreAllMocks();
      }
      expect(renames, message).toBe(4); // aside, the restored copy, the undo, the undo on a new connection
      const sql = /\n {2}(alter database "[^"]+_avant_restauration_\d+" rename to "([^"]+)");$/.exec(message);
      expect(message).toContain("n'a pas pu être remise sous son nom");
      expect(sql?.[2]).toBe(name);
      // What the operator runs puts the live database back, untouched.
      await admin((c) => c.query(sql![1]!));
      const temp = /la base restaurée sous le nom « ([^»]+) »/.exec(message)![1]!;
      await admin((c) => c.query(`drop database ${pg.escapeIdentifier(temp)} with (force)`));
      expect(await liveState(origin)).toEqual(before);
    },
  );
});
