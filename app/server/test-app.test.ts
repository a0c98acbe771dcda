// The test app (tests/helpers/app.ts) shares its worker's process with the next test files (README
// « Test »): one that fails to start, after its database is made and seeded, must leave nothing behind.
// SQLite's database is a folder of the system's temporary folder, here one of this test's own.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '#tests/helpers/app';

describe('a test app that fails to start', () => {
  const folder = mkdtempSync(join(tmpdir(), 'signalements-test-app-'));
  afterAll(() => {
    vi.unstubAllEnvs();
    rmSync(folder, { recursive: true, force: true });
  });

  it('removes its database when its settings are refused after the seed', async () => {
    vi.stubEnv('TMPDIR', folder);
    await expect(createTestApp('sqlite', { APP_TIMEZONE: 'Pas/Un_Fuseau' })).rejects.toThrow();
    expect(readdirSync(folder)).toEqual([]);
  });
});
