import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from './config';
import { openDatabase } from './db/client';
import { PASSWORD_STRENGTH_MESSAGES } from './domains/auth/password-strength';
import { countUsers } from './domains/utilisateurs/service';
import { start } from './start';

describe('first start with a weak ADMIN_PASSWORD', () => {
  const dir = mkdtempSync(join(tmpdir(), 'signalements-start-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stops with a French configuration error and creates no account', async () => {
    const url = `file:${join(dir, 'db.sqlite')}`;
    const env = {
      DATABASE_URL: url,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      ADMIN_PASSWORD: 'azertyuiop12',
    };
    const error = await start(env).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(
      `Configuration invalide :\n  - ADMIN_PASSWORD: ${PASSWORD_STRENGTH_MESSAGES.weak}`,
    );
    const db = openDatabase(url);
    try {
      expect(await countUsers(db)).toBe(0);
    } finally {
      await db.close();
    }
  });
});
