// The report list and a report built on threads of their own (decision 0024): the same
// answers, byte for byte, as when they are built on the main thread — REST and tRPC, filters, a search by a
// source's name (the data key in the thread), errors with their status and French message — and a thread
// that dies is replaced. The main thread's task functions are not called while the threads serve.
import type { Worker } from 'node:worker_threads';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatDataKey } from '#server/crypto/cipher';
import type { SessionUser } from '#server/domains/auth/session';
import { MESSAGES } from '#server/errors';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { createReport, mergePatch } from '#tests/helpers/signalements';
import { ReadTaskPool } from './read-task-pool';
import type { ReadTaskPool as Pool } from './read-task-pool';
import { READ_TASKS } from './read-tasks';
import { signalementListSchema } from '#shared/schemas/signalements';

describe('read tasks on their own threads (SQLite)', () => {
  let t: TestApp;
  let cookie: string;
  let codes: string[];
  /** The task thread the test app attached (one, as every test app on SQLite). */
  let own: Pool;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    await t.user('lecteur@example.mg', 'ROLE_GESTIONNAIRE', 'Lecteur Fil');
    cookie = await t.login('lecteur@example.mg');
    codes = [
      await createReport(t, cookie, {
        signalementAt: '2024-01-15',
        subjects: ['/api/subjects/DETOURNEMENT'],
      }),
      await createReport(t, cookie, { signalementAt: '2025-02-01' }),
      await createReport(t, cookie, { signalementAt: '2025-02-02T22:30:00Z' }),
    ];
    await mergePatch(t, cookie, `/api/signalements/${codes[0]}`, {
      description: 'Détournement de la caisse à Toliara',
    });
    const source = await t.app.inject({
      method: 'POST',
      url: '/api/sources',
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
      payload: { signalement: `/api/signalements/${codes[1]}`, nomPrenom: 'Rakotobe Fil-Témoin' },
    });
    expect(source.statusCode, source.body).toBe(201);
    own = t.ctx.tasks!;
    // The tests below compare with the answers built on this thread.
    t.ctx.tasks = null;
  });
  afterAll(async () => {
    await t?.ctx.tasks?.close();
    await own?.close();
    await t?.close();
  });

  const trpc = (path: string, input: unknown) =>
    `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`;
  const urls = () => [
    '/api/signalements',
    '/api/signalements?page=2&itemsPerPage=1',
    '/api/signalements?search=toliara',
    '/api/signalements?search=Rakotobe%20Fil-T%C3%A9moin',
    '/api/signalements?subjects.code[]=DETOURNEMENT&order[code]=asc',
    '/api/signalements?signalementAt[after]=2025-02-02',
    '/api/signalements?partenaire.code[]=INCONNU',
    '/api/signalements?page=0',
    `/api/signalements/${codes[0]}`,
    '/api/signalements/SIG-ABSENT',
    trpc('signalements.list', { search: 'toliara', page: 1, itemsPerPage: 20 }),
    trpc('signalements.get', { code: codes[1] }),
    trpc('signalements.get', { code: 'SIG-ABSENT' }),
  ];
  const answers = async () =>
    Promise.all(
      urls().map(async (url) => {
        const res = await t.app.inject({ url, headers: { cookie, 'sec-fetch-site': 'same-origin' } });
        return { url, status: res.statusCode, type: res.headers['content-type'], body: res.body };
      }),
    );

  it('answers as the main thread does, without running the tasks there, and replaces a thread that dies', async () => {
    const here = await answers();
    expect(here.map((a) => a.status)).toEqual([
      200, 200, 200, 200, 200, 200, 200, 400, 200, 404, 200, 200, 404,
    ]);
    expect(JSON.parse(here[3]!.body).totalItems).toBe(1);
    expect(JSON.parse(here[9]!.body).detail ?? JSON.parse(here[9]!.body).message).toBe(
      'Signalement non trouvé.',
    );

    const pool = new ReadTaskPool(
      { url: t.db.url, key: { ...t.config, DATA_KEY: formatDataKey(t.dataKey) }, config: t.config },
      2,
    );
    t.ctx.tasks = pool;
    let threaded: Awaited<ReturnType<typeof answers>> | undefined;
    const spies = Object.keys(READ_TASKS).map((name) =>
      vi.spyOn(READ_TASKS, name as keyof typeof READ_TASKS),
    );
    try {
      expect(await answers()).toEqual(here);
      expect(pool.stats().readers).toBe(2);
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();

      const { threads } = pool as unknown as { threads: { handle: Worker }[] };
      await threads[0]!.handle.terminate();
      await expect.poll(() => pool.stats().readers).toBe(2);
      expect(await answers()).toEqual(here);

      // A write on the main thread is seen by the next read on a thread (read-your-writes).
      for (let i = 0; i < 20; i++) {
        const description = `Mise à jour ${i}`;
        expect(
          (await mergePatch(t, cookie, `/api/signalements/${codes[2]}`, { description })).statusCode,
        ).toBe(200);
        const read = await t.app.inject({ url: `/api/signalements/${codes[2]}`, headers: { cookie } });
        expect(read.json().description).toBe(description);
      }
      threaded = await answers();
    } finally {
      for (const spy of spies) spy.mockRestore();
      t.ctx.tasks = null;
      await pool.close();
    }
    // Closed, the tasks run here again, with the same answers as the threads gave last.
    expect(await answers()).toEqual(threaded);
  }, 60_000);

  it("answers on the test app's own task thread as here: every suite built on createTestApp runs the threads", async () => {
    const here = await answers();
    const spies = Object.keys(READ_TASKS).map((name) =>
      vi.spyOn(READ_TASKS, name as keyof typeof READ_TASKS),
    );
    t.ctx.tasks = own;
    try {
      expect(await answers()).toEqual(here);
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
      t.ctx.tasks = null;
    }
  }, 60_000);

  /** The session user of lecteur@example.mg, as the main thread hands it to a task. */
  async function reader(): Promise<SessionUser> {
    const u = t.db.t.utilisateurs;
    const [user] = await t.db.read
      .select({ id: u.id, code: u.code })
      .from(u)
      .where(eq(u.email, 'lecteur@example.mg'));
    return {
      ...user!,
      email: 'lecteur@example.mg',
      nomPrenom: 'Lecteur Fil',
      isEnabled: true,
      lastConnectionAt: null,
      role: { code: 'ROLE_GESTIONNAIRE', designation: 'Gestionnaire' },
      twoFactorEnrolled: false,
    };
  }

  it("reads the main thread's clock, handed with each task, not the system's (the deadline filters' today)", async () => {
    // Filed on Monday 10 February 2025, niveau Critique: due on the 7th business day after, 19 February.
    const code = await createReport(t, cookie, { signalementAt: '2025-02-10' });
    const patched = await mergePatch(t, cookie, `/api/signalements/${code}`, {
      niveau: '/api/niveaux/CRITIQUE',
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const actor = await reader();
    const codesOn = async (echeance: 'en_retard' | 'sous_7_jours', now: string) => {
      const query = signalementListSchema.parse({ echeance });
      const { items } = await own.run('signalements.list', actor, query, new Date(now));
      return items.map((item) => item.code);
    };
    // Midday in Madagascar: the 19th is the due day, on time; the 20th, overdue. Both long before the
    // system's today, when the report is overdue by the system's clock.
    expect(await codesOn('en_retard', '2025-02-19T09:00:00Z')).toEqual([]);
    expect(await codesOn('sous_7_jours', '2025-02-19T09:00:00Z')).toEqual([code]);
    expect(await codesOn('sous_7_jours', '2025-02-11T09:00:00Z')).toEqual([]);
    expect(await codesOn('en_retard', '2025-02-20T09:00:00Z')).toEqual([code]);
  }, 60_000);

  it('answers a task past its deadline with the French 503, stops its looping thread and replaces it; the next task succeeds', async () => {
    const data = {
      url: t.db.url,
      key: { ...t.config, DATA_KEY: formatDataKey(t.dataKey) },
      config: t.config,
      testTasks: true,
    };
    const pool = new ReadTaskPool(data, 1, 5000);
    const actor = await reader();
    try {
      const before = await pool.run('signalements.get', actor, codes[0]!, new Date());
      expect(before.code).toBe(codes[0]);
      // A task that never returns (registered only for a pool built with testTasks under vitest).
      const loop = pool.run('test.loop' as 'signalements.get', actor, codes[0]!, new Date());
      await expect(loop).rejects.toMatchObject({
        name: 'DomainError',
        kind: 'unavailable',
        message: MESSAGES.readTimeout,
      });
      // The loop runs JavaScript: the thread is stopped at once, and a new one took its place.
      await expect
        .poll(() => pool.health(), { timeout: 10_000 })
        .toMatchObject({ threads: 1, stuck: 0, timeouts: 1, down: false });
      expect(await pool.run('signalements.get', actor, codes[0]!, new Date())).toEqual(before);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
