// Files of the data for this user alone (decision 0015, "Data files"): the SQLite database, its WAL and SHM
// files 0600 in a 0700 folder, from the first byte (created so, not tightened after data was written), and
// those of an older start tightened; a data key file that the group or others may read stops the start with a
// French line naming the file and the fix. The real modes, read with fs.stat.
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, testEngines } from '#tests/helpers/db';
import { DataKeyError } from '../crypto/data-key';
import { start, type Running } from '../start';
import { openDatabase } from './client';

const engines = await testEngines();
const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('modes of the data files', () => {
  const dirs: string[] = [];
  let running: Running | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
    vi.restoreAllMocks();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'signalements-modes-'));
    dirs.push(dir);
    // As a server's working folder usually is: readable by all (mkdtemp makes it 0700).
    chmodSync(dir, 0o755);
    return dir;
  };
  const startQuietly = (env: Record<string, string>) => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    return start({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env });
  };

  it('creates the SQLite database, its WAL and SHM 0600 in a 0700 folder (under the usual umask 022)', async () => {
    const data = join(folder(), 'data');
    const file = join(data, 'signalements.db');
    running = await startQuietly({ DATABASE_URL: `file:${file}` });
    // The start migrated and seeded: every file exists, written to.
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(0);
    expect([
      modeOf(data),
      modeOf(file),
      modeOf(`${file}-wal`),
      modeOf(`${file}-shm`),
      modeOf(join(data, 'data.key')),
    ]).toEqual(['700', '600', '600', '600', '600']);
  });

  it('opens a new SQLite database 0600 (and its WAL and SHM once written) in a new 0700 folder', async () => {
    const file = join(folder(), 'seul', 'base.db');
    const db = openDatabase(`file:${file}`, { readWorkers: 0 });
    try {
      expect(modeOf(file)).toBe('600');
      await db.migrate();
      expect([modeOf(file), modeOf(`${file}-wal`), modeOf(`${file}-shm`)]).toEqual(['600', '600', '600']);
    } finally {
      await db.close();
    }
  });

  it('tightens the folder and files an older version left readable by all', async () => {
    const data = join(folder(), 'data');
    const file = join(data, 'signalements.db');
    running = await startQuietly({ DATABASE_URL: `file:${file}` });
    await running.close();
    running = undefined;
    chmodSync(data, 0o755);
    chmodSync(file, 0o644);
    if (existsSync(`${file}-wal`)) chmodSync(`${file}-wal`, 0o644);
    running = await startQuietly({ DATABASE_URL: `file:${file}` });
    expect([modeOf(data), modeOf(file), modeOf(`${file}-wal`), modeOf(`${file}-shm`)]).toEqual([
      '700',
      '600',
      '600',
      '600',
    ]);
  });

  describe.each(engines)('on %s', (engine) => {
    it('refuses to start with a data key file that the group or others may read, naming the file and the fix', async () => {
      const dir = folder();
      const keyFile = join(dir, 'cle', 'data.key');
      let url = `file:${join(dir, 'base.db')}`;
      let drop = async () => {};
      if (engine === 'postgres') {
        const tdb = await createTestDatabase('postgres');
        await tdb.db.close().catch(() => undefined);
        url = tdb.url;
        drop = () => tdb.drop().catch(() => undefined);
      }
      try {
        running = await startQuietly({ DATABASE_URL: url, DATA_KEY_FILE: keyFile });
        await running.close();
        running = undefined;
        expect(modeOf(keyFile)).toBe('600');
        for (const loose of [0o644, 0o640, 0o604]) {
          chmodSync(keyFile, loose);
          const refused = await startQuietly({ DATABASE_URL: url, DATA_KEY_FILE: keyFile }).then(
            (r) => ((running = r), null),
            (error: unknown) => error,
          );
          expect(refused).toBeInstanceOf(DataKeyError);
          expect((refused as Error).message).toBe(
            `Fichier de clé de chiffrement ${keyFile} accessible à d'autres utilisateurs que son propriétaire (mode 0${loose.toString(8)}) : ` +
              `restreignez-le avec « chmod 600 ${keyFile} ». Le serveur ne démarre pas.`,
          );
        }
        // The server never widens nor silently fixes the key's mode: after the operator's chmod it starts.
        expect(modeOf(keyFile)).toBe('604');
        chmodSync(keyFile, 0o600);
        running = await startQuietly({ DATABASE_URL: url, DATA_KEY_FILE: keyFile });
      } finally {
        await running?.close();
        running = undefined;
        await drop();
      }
    });
  });
});
