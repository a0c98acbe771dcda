import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, testEngines } from '#tests/helpers/db';
import { formatDataKey } from './crypto/cipher';
import { DEFAULT_ADMIN_EMAIL, start, type Running } from './start';

describe('first start', () => {
  const dirs: string[] = [];
  let running: Running | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
    vi.restoreAllMocks();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  const env = (extra: Record<string, string> = {}) => {
    const dir = mkdtempSync(join(tmpdir(), 'signalements-start-'));
    dirs.push(dir);
    return {
      DATABASE_URL: `file:${join(dir, 'db.sqlite')}`,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      ...extra,
    };
  };

  it('migrates, seeds, prints the first administrator once, and the printed password logs in', async () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const e = env();
    running = await start(e);
    const printed = out.mock.calls.map((c) => String(c[0])).join('');
    expect(printed).toContain(`e-mail       : ${DEFAULT_ADMIN_EMAIL}`);
    const password = printed.match(/mot de passe : (\S+)/)![1]!;
    const res = await running.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: DEFAULT_ADMIN_EMAIL, password },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().utilisateurRole.code).toBe('ROLE_ADMIN');
    const health = await fetch(`${running.url}/api/health`);
    expect(health.status).toBe(200);
    await running.close();

    out.mockClear();
    running = await start(e);
    expect(out.mock.calls.map((c) => String(c[0])).join('')).not.toContain('Premier administrateur');
  });

  it('uses ADMIN_EMAIL and ADMIN_PASSWORD when set, without printing the password', async () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    running = await start(env({ ADMIN_EMAIL: 'Chef@Example.mg', ADMIN_PASSWORD: 'un-mot-de-passe-solide' }));
    const printed = out.mock.calls.map((c) => String(c[0])).join('');
    expect(printed).toContain('chef@example.mg');
    expect(printed).not.toContain('un-mot-de-passe-solide');
    const res = await running.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'chef@example.mg', password: 'un-mot-de-passe-solide' },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe.each(await testEngines())('listening address on %s', (engine) => {
  it('listens on the loopback interface only when HOST is unset: another address of the machine refuses', async () => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const t = await createTestDatabase(engine);
    let running: Running | undefined;
    try {
      running = await start({
        DATABASE_URL: t.url,
        DATA_KEY: formatDataKey(t.dataKey),
        PORT: '0',
        LOG_LEVEL: 'silent',
      });
      const { address, port } = running.app.server.address() as AddressInfo;
      expect(address).toBe('127.0.0.1');
      expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
      // A machine with a network interface: the same port on its address is closed.
      const lan = Object.values(networkInterfaces())
        .flat()
        .find((i) => i && !i.internal && i.family === 'IPv4');
      if (lan) {
        const refused = await new Promise<string>((done) => {
          const socket = connect(port, lan.address);
          socket.once('connect', () => {
            socket.destroy();
            done('connected');
          });
          socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'error'));
        });
        expect(refused).toBe('ECONNREFUSED');
      }
    } finally {
      await running?.close();
      await t.drop();
      vi.restoreAllMocks();
    }
  });
});
