// Evidence files in backups (docs/decisions/0033-evidence-files.md), on both engines: a file attached before a
// backup is in its restored copy, listed with its hash and downloaded byte for byte with the key sealed in it.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { dropWithRestoreCopies, PG_ADMIN_URL, testEngines } from '#tests/helpers/db';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { MINIMAL_REPORT } from '#tests/helpers/signalements';
import { loadConfig } from '../config';
import type { Engine } from '../db/client';
import { createUser } from '../domains/utilisateurs/service';
import { start, type Running } from '../start';
import { backupDatabase } from './backup';
import { restoreDatabase } from './restore';

const USER = { email: 'pieces@example.mg', password: 'Vohitra-tsara-7824-mandry!' };
const PASSPHRASE = 'une phrase de passe gardée hors du serveur';

describe.each(await testEngines())('evidence files in a backup on %s', (engine: Engine) => {
  const dir = mkdtempSync(join(tmpdir(), 'signalements-pieces-'));
  const databases: string[] = [];
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await dropWithRestoreCopies(databases);
  });

  async function instance(name: string): Promise<Record<string, string>> {
    const folder = join(dir, name);
    const common = { BACKUP_DIR: join(dir, 'sauvegardes'), BACKUP_PASSPHRASE: PASSPHRASE };
    if (engine === 'sqlite') return { DATABASE_URL: `file:${join(folder, 'signalements.db')}`, ...common };
    const database = `signalements_pieces_${randomBytes(4).toString('hex')}`;
    databases.push(database);
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${database}`;
    if (name === 'origine') {
      const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
      await admin.connect();
      await admin.query(`create database ${database}`);
      await admin.end();
    }
    return { DATABASE_URL: url.toString(), DATA_KEY_FILE: join(folder, 'data.key'), ...common };
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
    return `session=${res.cookies.find((c) => c.name === 'session')!.value}`;
  }

  it('restores the files attached before the backup, readable with the sealed key', async () => {
    const origin = await instance('origine');
    const running = await serve(origin);
    const content = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(600_000)]);
    let code: string;
    let report: string;
    try {
      await createUser(running.db, {
        email: USER.email,
        nomPrenom: 'Rabe Pieces',
        roleCode: 'ROLE_GESTIONNAIRE',
        password: USER.password,
      });
      const cookie = await logIn(running);
      const created = await running.app.inject({
        method: 'POST',
        url: '/api/signalements',
        headers: { cookie, ...SAME_ORIGIN },
        payload: MINIMAL_REPORT,
      });
      report = created.json().code;
      const uploaded = await running.app.inject({
        method: 'POST',
        url: `/api/signalements/${report}/pieces-jointes`,
        headers: {
          cookie,
          ...SAME_ORIGIN,
          'content-type': 'application/octet-stream',
          'x-nom-fichier': 'proc%C3%A8s-verbal.pdf',
        },
        payload: content,
      });
      expect(uploaded.statusCode, uploaded.body).toBe(201);
      code = uploaded.json().code;
    } finally {
      await running.close();
    }
    const backup = await backupDatabase(loadConfig(origin));

    const target = await instance('cible');
    await restoreDatabase(loadConfig(target), backup.file, { passphrase: PASSPHRASE });
    const again = await serve(target);
    try {
      const cookie = await logIn(again);
      const list = await again.app.inject({
        url: `/api/signalements/${report}/pieces-jointes`,
        headers: { cookie },
      });
      expect(list.json().member.map((f: { code: string; nom: string }) => [f.code, f.nom])).toEqual([
        [code, 'procès-verbal.pdf'],
      ]);
      const down = await again.app.inject({
        url: `/api/pieces-jointes/${code}/contenu`,
        headers: { cookie },
      });
      expect(down.statusCode).toBe(200);
      expect(down.rawPayload.equals(content)).toBe(true);
    } finally {
      await again.close();
    }
  }, 120_000);
});
