// The narrow copy of the search texts on PostgreSQL (migration 0029, decision 0064) holds, after every kind of
// write that changes a report's search text, exactly the reports' texts: one row per report, the same text,
// removed with its report; the list's count of common words reads it.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { postgresAvailable } from '#tests/helpers/db';
import { pgStatementsOf } from '#tests/helpers/pg-statements';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport, mergePatch } from '#tests/helpers/signalements';
import { serverSuite } from '#tests/helpers/suite';

describe.skipIf(!(await postgresAvailable()))('the copy of the search texts on postgres', () => {
  const { app: t, user } = serverSuite('postgres', { options: { taskThreads: 0 } });

  /** The reports whose copy is missing, extra or different. */
  const drift = () =>
    t.db.rows<{ id: number }>(
      sql`select coalesce(s.id, c.id) as id from signalements s
          full join signalement_search_texts c on c.id = s.id
          where s.search_text is distinct from c.search_text`,
    );
  const copies = async () =>
    (await t.db.rows<{ n: unknown }>(sql`select count(*) as n from signalement_search_texts`))[0]!.n;

  it('follows creates, patches, a person added and removed, and a report removed', async () => {
    const first = await createReport(t, user.cookie);
    const second = await createReport(t, user.cookie);
    expect(await drift()).toEqual([]);
    expect(Number(await copies())).toBe(2);

    const patched = await mergePatch(t, user.cookie, `/api/signalements/${second}`, {
      description: 'Abus de pouvoir à Toliara',
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(await drift()).toEqual([]);

    const author = await t.app.inject({
      method: 'POST',
      url: '/api/presume_auteurs',
      headers: { cookie: user.cookie, ...SAME_ORIGIN },
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
      headers: { cookie: user.cookie, ...SAME_ORIGIN },
    });
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await drift()).toEqual([]);

    // A report removed (no route removes one; the database's cascade must): its copy goes with it.
    await t.db.transaction(async (tx) => {
      await t.db.rows(
        sql`insert into signalements (code, signalement_at, created_by_id, partenaire_id, search_text)
            select 'SIG-COPIE-1', now(), min(u.id), min(p.id), 'texte a retirer'
            from utilisateurs u, partenaires p`,
        tx,
      );
    });
    expect(Number(await copies())).toBe(3);
    await t.db.transaction(async (tx) => {
      await t.db.rows(sql`delete from signalements where code = 'SIG-COPIE-1'`, tx);
    });
    expect(Number(await copies())).toBe(2);
    expect(await drift()).toEqual([]);
  });

  it('gives the list the total of common words read from the copy, after writes through the API', async () => {
    // Twelve reports of the latest thousand hold the words: dense (1 %), counted by a scan of the copy.
    for (let i = 0; i < 12; i++) {
      const code = await createReport(t, user.cookie);
      const res = await mergePatch(t, user.cookie, `/api/signalements/${code}`, {
        description: `Mangrove coupée sans permis, lot ${i}`,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const { value: res, sent } = await pgStatementsOf(() =>
      t.app.inject({ url: '/api/signalements?search=mangrove%20permis', headers: { cookie: user.cookie } }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().totalItems).toBe(12);
    expect(sent.some((statement) => statement.text.includes('"signalement_search_texts"'))).toBe(true);
  });
});
