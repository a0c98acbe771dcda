// Timing does not tell whether a source bears a name (decision 0015): the list searched by the
// exact name of a protected source issues the same statements, word for word, as a search by a name no
// source has. Statements are captured where they leave for the database (SQLite's reader threads,
// PostgreSQL's clients, pooled or not), not timed: the same statement text is the same plan and the same work.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { userId } from '#tests/helpers/journal';
import { PEOPLE, SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport, mergePatch } from '#tests/helpers/signalements';
import { ReadPool } from '#server/db/read-pool';
import type { SessionUser } from '../auth/session';
import { listPage } from './queries';

const ABSENT = 'Rasoanirina Personne-Inconnue';

describe.each(await testEngines())('the exact-name search issues the same statements on %s', (engine) => {
  let t: TestApp;
  let report: string;
  const viewers: Record<'creator' | 'other' | 'admin', SessionUser> = {} as never;

  const sessionUser = async (email: string, role: string): Promise<SessionUser> => {
    const code = await t.user(email, role);
    return {
      id: await userId(t, code),
      code,
      email,
      nomPrenom: 'Rakoto Jean',
      isEnabled: true,
      lastConnectionAt: null,
      role: { code: role, designation: role },
      twoFactorEnrolled: false,
    };
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    viewers.creator = await sessionUser('createur@example.mg', 'ROLE_USER');
    viewers.other = await sessionUser('autre@example.mg', 'ROLE_USER');
    viewers.admin = await sessionUser('admin@example.mg', 'ROLE_ADMIN');
    const creator = await t.login('createur@example.mg');
    report = await createReport(t, creator);
    const source = await t.app.inject({
      method: 'POST',
      url: '/api/sources',
      headers: { cookie: creator, ...SAME_ORIGIN },
      payload: {
        signalement: `/api/signalements/${report}`,
        nomPrenom: PEOPLE.source,
        contact: PEOPLE.sourceContact,
        canaux: ['/api/canals/TELEPHONE'],
      },
    });
    expect(source.statusCode, source.body).toBe(201);
    expect(
      (await mergePatch(t, creator, `/api/signalements/${report}`, { isAnonyme: true })).statusCode,
    ).toBe(200);
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await t?.close();
  });

  /** The statements one list search sends to the database, in a stable order, and its total. */
  const search = async (viewer: SessionUser, text: string) => {
    const spy =
      engine === 'sqlite' ? vi.spyOn(ReadPool.prototype, 'run') : vi.spyOn(pg.Client.prototype, 'query');
    try {
      const { total } = await listPage(t.ctx, viewer, { search: text, page: 1, itemsPerPage: 20 });
      const statements = spy.mock.calls.map(([query]) =>
        typeof query === 'string' ? query : (query as { text: string }).text,
      );
      return { total: total.n, statements: statements.sort() };
    } finally {
      spy.mockRestore();
    }
  };

  it('by a user who may not know the source, by its creator and by an administrator: same statements for a name that exists and one that does not', async () => {
    for (const [who, viewer] of Object.entries(viewers)) {
      const present = await search(viewer, PEOPLE.source);
      const absent = await search(viewer, ABSENT);
      expect(present.statements.length, who).toBeGreaterThan(0);
      expect(present.statements, who).toEqual(absent.statements);
      expect(absent.total, who).toBe(0);
      // Only those who may know the source find its report by its name.
      expect(present.total, who).toBe(who === 'other' ? 0 : 1);
    }
  });
});
