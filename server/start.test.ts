import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
