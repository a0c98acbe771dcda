import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPC_MAX_BATCH } from '#shared/constants';
import { createTestApp, type TestApp } from '#tests/helpers/app';

describe('tRPC batching', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    await t.user('agent@example.mg');
  });
  afterAll(async () => t?.close());

  it('answers a batch of TRPC_MAX_BATCH procedures in one request (long /trpc path)', async () => {
    const cookie = await t.login('agent@example.mg');
    const procedures = ['subjects', 'canals', 'niveaux', 'statuts', 'resultats', 'regions'].map(
      (p) => `referentiels.${p}`,
    );
    const paths = [
      ...procedures,
      ...procedures.slice(0, TRPC_MAX_BATCH - procedures.length - 1),
      'auth.whoAmI',
    ];
    expect(paths).toHaveLength(TRPC_MAX_BATCH);
    const input = encodeURIComponent(JSON.stringify({}));
    const url = `/trpc/${paths.join(',')}?batch=1&input=${input}`;
    expect(paths.join(',').length).toBeGreaterThan(200);
    const res = await t.app.inject({ url, headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(paths.length);
  });
});
