// What one request costs PostgreSQL in statements and round trips (decision 0030), counted where the
// statements leave the server's clients, not timed: a first page of the list is the session check, then the
// one statement of its rows, subjects, assignees and the whole list's total, which finds the page again
// (decisions 0063, 0065 and 0067); another page is the session check, its total beside its page, then the rows'
// three statements side by side; a report is the session check,
// its lookup and the loader; a create is one transaction whose statements this file counts, so a statement
// added to any of them shows here. The app runs its read tasks on this thread (taskThreads: 0) so that
// their statements leave through the clients this file watches; the threads run the same functions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { postgresAvailable } from '#tests/helpers/db';
import { pgStatementsOf, waves } from '#tests/helpers/pg-statements';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport, mergePatch, MINIMAL_REPORT } from '#tests/helpers/signalements';

describe.skipIf(!(await postgresAvailable()))('statements of one request on PostgreSQL', () => {
  let t: TestApp;
  let cookie: string;
  let code: string;

  beforeAll(async () => {
    t = await createTestApp('postgres', {}, { taskThreads: 0 });
    await t.user('agent@example.mg', 'ROLE_USER');
    cookie = await t.login('agent@example.mg');
    code = await createReport(t, cookie);
    // The pool holds a connection for each statement of a wave (a request may open them otherwise).
    for (let i = 0; i < 3; i++) await t.app.inject({ url: '/api/signalements', headers: { cookie } });
  });
  afterAll(async () => t?.close());

  const request = (options: { method?: 'GET' | 'POST'; url: string; payload?: object }) =>
    pgStatementsOf(async () => {
      const res = await t.app.inject({
        method: options.method ?? 'GET',
        url: options.url,
        payload: options.payload,
        headers: { cookie, ...SAME_ORIGIN },
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res;
    });
  const named = (wave: string[]) => wave.map((text) => (/^[a-z_]+$/.test(text) ? text : 'sql')).sort();

  it('a first page of the list: the session check, then one statement of its rows and its total, which finds the page again', async () => {
    const { sent, value } = await request({ url: '/api/signalements' });
    expect(waves(sent).map(named)).toEqual([
      ['signalements_session_check'],
      ['signalements_list_page_and_total_of_first_page_date_desc'],
    ]);
    expect(value.json().totalItems).toBe(1);
  });

  it('another page: the session check, then the total beside the page (then the list rows)', async () => {
    // Not the first page: the page is read once, its rows would be read by its ids (there are none this
    // far: no row is read); the same order's first page is found again by its rows' statements.
    const { sent } = await request({ url: '/api/signalements?itemsPerPage=1&page=1001&order[code]=asc' });
    expect(waves(sent).map(named)).toEqual([
      ['signalements_session_check'],
      ['signalements_whole_list_total', 'sql'],
    ]);
    const first = await request({ url: '/api/signalements?order[code]=asc' });
    expect(waves(first.sent).map(named)).toEqual([
      ['signalements_session_check'],
      ['signalements_list_page_and_total_of_first_page_code_asc'],
    ]);
  });

  it('a list filtered by partner: the codes looked up beside the counters, then the page, then the list rows', async () => {
    const { sent } = await request({ url: '/api/signalements?partenaire.code[]=IVY' });
    expect(waves(sent).map(named)).toEqual([
      ['signalements_session_check'],
      ['sql', 'sql'],
      ['sql'],
      // The one report of this partner: its rows by its one id (decision 0066).
      [
        'signalements_list_rows_of_one',
        'signalements_load_assignees_of_one',
        'signalements_load_subjects_of_one',
      ],
    ]);
  });

  it('a report: the session check, its lookup, then its loader by its one id (decision 0066)', async () => {
    const { sent } = await request({ url: `/api/signalements/${code}` });
    expect(waves(sent).map(named)).toEqual([
      ['signalements_session_check'],
      ['sql', 'sql'],
      [
        'signalements_load_assignees_of_one',
        'signalements_load_projects_of_one',
        'signalements_load_reports_of_one',
        'signalements_load_subjects_of_one',
      ],
    ]);
  });

  it('a create: its codes looked up side by side, one transaction of a fixed number of statements, then the answer loaded', async () => {
    const { sent } = await request({ method: 'POST', url: '/api/signalements', payload: MINIMAL_REPORT });
    const texts = sent.map((s) => s.text);
    const begin = texts.indexOf('begin');
    const commit = texts.indexOf('commit');
    expect(waves(sent.slice(0, begin)).map((wave) => wave.length)).toEqual([1, 3]);
    expect(commit - begin - 1).toBe(STATEMENTS_IN_CREATE);
    expect(texts.length - commit - 1).toBe(4);
  });

  it('a patch reads its report once after the write, and writes its search text only when it changed', async () => {
    const patch = async (body: object) => {
      const { sent } = await pgStatementsOf(async () => {
        const res = await mergePatch(t, cookie, `/api/signalements/${code}`, body);
        expect(res.statusCode, res.body).toBe(200);
      });
      const texts = sent.map((s) => s.text);
      return {
        searchTextWrites: texts.filter((text) => text.startsWith('update "signalements" set "search_text"'))
          .length,
        reportReads: texts.filter((text) =>
          text.startsWith(
            'select "signalements"."id", "signalements"."code", "signalements"."signalement_at"',
          ),
        ).length,
      };
    };
    // Before the write (its snapshot) and after it (its snapshot and its search text): two reads.
    expect(await patch({ statut: '/api/statuts/EN_COURS' })).toEqual({ searchTextWrites: 0, reportReads: 2 });
    expect(await patch({ description: 'Une description cherchable' })).toEqual({
      searchTextWrites: 1,
      reportReads: 2,
    });
  });

  it('a page of two or three reports: its rows by a statement for that many ids; four, by the list (decision 0068)', async () => {
    for (let i = 0; i < 3; i++) await createReport(t, cookie);
    const rowsOf = async (size: number) => {
      const { sent } = await request({ url: `/api/signalements?itemsPerPage=${size}` });
      return waves(sent).map(named).at(-1);
    };
    expect(await rowsOf(2)).toEqual([
      'signalements_list_rows_of_two',
      'signalements_load_assignees_of_two',
      'signalements_load_subjects_of_two',
    ]);
    expect(await rowsOf(3)).toEqual([
      'signalements_list_rows_of_three',
      'signalements_load_assignees_of_three',
      'signalements_load_subjects_of_three',
    ]);
    expect(await rowsOf(4)).toEqual([
      'signalements_list_rows',
      'signalements_load_assignees',
      'signalements_load_subjects',
    ]);
  });
});

/** The statements between BEGIN and COMMIT of a create: the report, its links, its row and subjects read once (decision 0057), its search text, its history. */
const STATEMENTS_IN_CREATE = 3;
