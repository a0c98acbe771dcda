// Every REST route addressed by `:code` parses it with the one shared schema (shared/schemas/common.ts):
// a blank code is the same French 400 on each door, never a lookup of an empty code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';

describe('the :code path parameter', () => {
  let t: TestApp;
  let cookie: string;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    await t.user('admin-code@example.mg', 'ROLE_ADMIN');
    cookie = await t.login('admin-code@example.mg');
  });
  afterAll(async () => t?.close());

  const routes: Array<['GET' | 'PATCH' | 'PUT' | 'DELETE', string]> = [
    ['GET', '/api/signalements/%20'],
    ['GET', '/api/resume/signalements-details/%20'],
    ['GET', '/api/projects/%20'],
    ['GET', '/api/partenaires/%20'],
    ['PUT', '/api/partenaires/%20'],
    ['PATCH', '/api/utilisateurs/%20'],
    ['PATCH', '/api/presume_auteurs/%20'],
    ['DELETE', '/api/victimes/%20'],
  ];

  it.each(routes)('%s %s refuses a blank code with one French 400', async (method, url) => {
    const res = await t.app.inject({
      method,
      url,
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
      ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status: 400,
      message: 'Code manquant.',
      violations: [{ propertyPath: 'code', message: 'Code manquant.' }],
    });
  });
});
