import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createAppContext } from '../context';
import { seed } from '../db/seed/index';
import { createUser } from '../domains/utilisateurs/service';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/db';

describe('request logs', () => {
  let tdb: TestDatabase;
  const lines: string[] = [];
  beforeAll(async () => {
    tdb = await createTestDatabase('sqlite');
    await seed(tdb.db);
    await createUser(tdb.db, {
      email: 'agent@example.mg',
      nomPrenom: 'Agent',
      roleCode: 'ROLE_USER',
      password: 'mot-de-passe-secret-42',
    });
  });
  afterAll(async () => tdb?.drop());

  it('writes one structured line per request, without passwords, tokens or session ids', async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const config = loadConfig({ LOG_LEVEL: 'info', DATABASE_URL: tdb.url });
    const app = await buildApp({
      ctx: createAppContext(config, { db: tdb.db, cipher: tdb.cipher }),
      logStream: stream,
    });
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: 'agent@example.mg', password: 'mot-de-passe-secret-42' },
      });
      const token = res.cookies.find((c) => c.name === 'session')!.value;
      await app.inject({
        url: '/api/utilisateur/who-am-i?search=x',
        headers: { cookie: `session=${token}` },
      });
      await app.inject({ url: '/api/definir-mot-de-passe/jeton-tres-secret' });
      await app.inject({ url: '/api/d%65finir-mot-de-passe/jeton-tres-secret-2' });
      const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
      expect(requests).toHaveLength(4);
      expect(requests[0]).toMatchObject({ method: 'POST', url: '/api/login', status: 200 });
      expect(requests[1]).toMatchObject({ url: '/api/utilisateur/who-am-i', status: 200 });
      expect(requests[2].url).toBe('/api/definir-mot-de-passe/***');
      expect(requests[3].url).toBe('/api/definir-mot-de-passe/***');
      const all = lines.join('\n');
      for (const secret of ['mot-de-passe-secret-42', token, 'jeton-tres-secret'])
        expect(all).not.toContain(secret);
    } finally {
      await app.close();
    }
  });
});
