// The narrow copy of the search texts on PostgreSQL (migration 0029, decision 0064) holds, after every kind of
// write that changes a report's search text, exactly the reports' texts: one row per report, the same text,
// written in the same transaction (a write that fails leaves neither).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { postgresAvailable } from '#tests/helpers/db';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport, mergePatch } from '#tests/helpers/signalements';

describe.skipIf(!(await postgresAvailable()))('the copy of the search texts on postgres', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp('postgres');
    await t.user('agent@example.mg', 'ROLE_USER');
    cookie = await t.login('agent@example.mg');
  });
  afterAll(async () => t?.close());

  /** The reports whose copy is missing, extra or different. */
  const drift = () =>
    t.db.rows<{ id: number }>(
      sql`select coalesce(s.id, c.id) as id from signalements s
          full join signalement_search_texts c on c.id = s.id
          where s.search_text is distinct from c.search_text`,
    );
  const copies = async () =>
    (await t.db.rows<{ n: unknown }>(sql`select count(*) as n from signalement_search_texts`))[0]!.n;

  it('follows creates, patches, a person added and removed, and writes that fail', async () => {
    const first = await createReport(t, cookie, { description: 'Détournement des fonds de la commune' });
    const second = await createReport(t, cookie);
    expect(await drift()).toEqual([]);
    expect(Number(await copies())).toBe(2);

    const patched = await mergePatch(t, cookie, `/api/signalements/${second}`, {
      description: 'Abus de pouvoir à Toliara',
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(await drift()).toEqual([]);

    const author = await t.app.inject({
      method: 'POST',
      url: '/api/presume_auteurs',
      headers: { cookie, ...SAME_ORIGIN },
      payload: { nomPrenom: 'Randrianarisoa Éloi', signalement: `/api/signalements/${first}` },
    });
    expect(author.statusCode, author.body).toBe(201);
    const [row] = await t.db.rows<{ search_text: string }>(
      sql`select c.search_text from signalement_search_texts c join signalements s on s.id = c.id
          where s.code = ${first}`,
    );
    expect(row!.search_text).toContain('randrianarisoa');
    expect(await drift()).toEqual([]);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: author.json()['@id'],
      headers: { cookie, ...SAME_ORIGIN },
    });
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await drift()).toEqual([]);

    // A write that fails after its update of the text: neither the report nor its copy changes.
    const before = await t.db.rows(sql`select search_text from signalement_search_texts order by id`);
    await expect(
      t.db.transaction(async (tx) => {
        await t.db.rows(sql`update signalements set search_text = 'tout autre texte'`, tx);
        throw new Error('échec voulu');
      }),
    ).rejects.toThrow('échec voulu');
    expect(await t.db.rows(sql`select search_text from signalement_search_texts order by id`)).toEqual(
      before,
    );
    expect(await drift()).toEqual([]);
  });
});
