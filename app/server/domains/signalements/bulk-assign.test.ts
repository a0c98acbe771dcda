// Bulk actions (docs/decisions/0035-bulk-actions.md), beside bulk.test.ts: an assignment in bulk to an account
// that cannot be assigned (disabled, unknown) is refused in French with nothing written, by both doors and in
// the preview; and a bulk action is stamped by the context's clock, as the other services' writes are.
// Both engines.
import { and, asc, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport } from '#tests/helpers/signalements';
import { serverSuite } from '#tests/helpers/suite';
import { ASSIGN_MESSAGES } from './assignees';

describe.each(await testEngines())('bulk assignment refusals and clock on %s', (engine) => {
  const suite = serverSuite(engine, { user: { email: 'createur@example.mg', nomPrenom: 'Rabe Createur' } });
  const t = suite.app;
  const code = { active: '', disabled: '' };

  beforeAll(async () => {
    code.active = await t.user('actif@example.mg', 'ROLE_USER', 'Rakoto Actif');
    code.disabled = await t.user('parti@example.mg', 'ROLE_USER', 'Rasoa Partie');
    const off = await post('/trpc/utilisateurs.update', { code: code.disabled, isEnabled: false }, true);
    expect(off.statusCode, off.body).toBe(200);
  });

  function post(url: string, body: unknown, asAdmin = false) {
    return t.app.inject({
      method: 'POST',
      url,
      headers: {
        cookie: asAdmin ? suite.admin.cookie : suite.user.cookie,
        ...SAME_ORIGIN,
        'content-type': 'application/json',
      },
      payload: JSON.stringify(body),
    });
  }
  /** What a bulk assignment could have written: assignees, history, access log, e-mails. */
  async function written(codes: string[]) {
    const { signalements: s, signalementAssignees: a, signalementHistorique: h } = t.db.t;
    const { accessLog: l, mailOutbox: m } = t.db.t;
    const ids = (await t.db.read.select({ id: s.id }).from(s).where(inArray(s.code, codes))).map((r) => r.id);
    return {
      assignees: (await t.db.read.select().from(a).where(inArray(a.signalementId, ids))).length,
      history: (
        await t.db.read
          .select()
          .from(h)
          .where(and(inArray(h.signalementId, ids), eq(h.action, 'assignation')))
      ).length,
      log: (await t.db.read.select().from(l).where(eq(l.kind, 'action_groupee'))).length,
      mails: (await t.db.read.select().from(m).where(eq(m.kind, 'assignment'))).length,
    };
  }

  it('refuses to assign a disabled or an unknown account in bulk, in French, by both doors, writing nothing', async () => {
    const codes = [await createReport(t, suite.user.cookie), await createReport(t, suite.user.cookie)];
    const before = await written(codes);
    for (const [utilisateur, message] of [
      [code.disabled, ASSIGN_MESSAGES.disabledUser],
      [`/api/utilisateurs/${code.disabled}`, ASSIGN_MESSAGES.disabledUser],
      ['USR-INCONNU', ASSIGN_MESSAGES.unknownUser],
    ] as const) {
      const action = { type: 'assigner', utilisateur };
      for (const [res, read] of [
        [await post('/api/signalements/actions-groupees', { codes, action }), 'rest'],
        [await post('/api/signalements/actions-groupees/apercu', { codes, action }), 'rest'],
        [
          await post(
            '/api/signalements/actions-groupees',
            { filtre: { 'createdBy.code': [suite.user.code] }, action },
            true,
          ),
          'rest',
        ],
        [await post('/trpc/signalements.bulk', { codes, action }), 'trpc'],
      ] as const) {
        expect(res.statusCode, res.body).toBe(400);
        expect(read === 'rest' ? res.json().message : res.json().error.message).toBe(message);
      }
    }
    expect(await written(codes)).toEqual(before);
    expect(before.assignees + before.history).toBe(0);
  });

  it("stamps a bulk action's history, assignments and last action with the context's clock", async () => {
    const codes = [await createReport(t, suite.user.cookie), await createReport(t, suite.user.cookie)];
    const at = new Date('2026-03-04T05:06:07.000Z');
    const clock = t.ctx.clock;
    t.ctx.clock = { now: () => at };
    try {
      const res = await post('/api/signalements/actions-groupees', {
        codes,
        action: { type: 'assigner', utilisateur: code.active },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ modifies: 2 });
    } finally {
      t.ctx.clock = clock;
    }
    const { signalements: s, signalementAssignees: a, signalementHistorique: h } = t.db.t;
    const rows = await t.db.read
      .select({ history: h.at, assigned: a.assignedAt, lastAction: s.lastActionAt })
      .from(s)
      .innerJoin(a, eq(a.signalementId, s.id))
      .innerJoin(h, and(eq(h.signalementId, s.id), eq(h.action, 'assignation')))
      .where(inArray(s.code, codes))
      .orderBy(asc(s.code));
    expect(rows).toEqual([
      { history: at, assigned: at, lastAction: at },
      { history: at, assigned: at, lastAction: at },
    ]);
  });
});
