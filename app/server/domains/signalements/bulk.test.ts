// Bulk actions (docs/decisions/0035-bulk-actions.md): hand-picked or by the list's filters, each action,
// the 10,000 cap, refusal as a whole, one history entry per changed report, one access-log entry, one
// e-mail per assignee, the count the confirmation stated, and nothing left behind by a failure midway.
// Both doors, both engines.
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { NO_DUE_DAY } from '#shared/constants';
import { BULK_MAX } from '#shared/constants';
import { testEngines } from '#tests/helpers/db';
import { insertAssignment, SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport } from '#tests/helpers/signalements';
import { serverSuite } from '#tests/helpers/suite';
import { BULK_REFUSALS } from './bulk-plan';

describe.each(await testEngines())('bulk actions on %s', (engine) => {
  const suite = serverSuite(engine, { user: { email: 'createur@example.mg', nomPrenom: 'Rabe Createur' } });
  const t = suite.app;
  const cookie = { creator: '', other: '', assignee: '', admin: '' };
  type Caller = keyof typeof cookie;
  const code = { creator: '', other: '', assignee: '', big: '' };

  beforeAll(async () => {
    code.creator = suite.user.code;
    code.other = await t.user('autre@example.mg', 'ROLE_USER', 'Randria Autre');
    code.assignee = await t.user('assigne@example.mg', 'ROLE_USER', 'Rakoto Assigne');
    code.big = await t.user('volume@example.mg', 'ROLE_USER', 'Rasoa Volume');
    cookie.creator = suite.user.cookie;
    cookie.admin = suite.admin.cookie;
    cookie.other = await t.login('autre@example.mg');
    cookie.assignee = await t.login('assigne@example.mg');
  });

  const post = (caller: Caller, url: string, body: unknown) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { cookie: cookie[caller], ...SAME_ORIGIN, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const rest = (caller: Caller, body: unknown) => post(caller, '/api/signalements/actions-groupees', body);
  const restPreview = (caller: Caller, body: unknown) =>
    post(caller, '/api/signalements/actions-groupees/apercu', body);
  const trpc = (caller: Caller, path: string, body: unknown) => post(caller, `/trpc/${path}`, body);
  const reports = async (n: number, caller: Caller = 'creator', overrides: Record<string, unknown> = {}) => {
    const codes: string[] = [];
    for (let i = 0; i < n; i++) codes.push(await createReport(t, cookie[caller], overrides));
    return codes;
  };
  const state = async (codes: string[]) => {
    const { signalements: s, statuts: st, niveaux: n } = t.db.t;
    return t.db.read
      .select({
        code: s.code,
        statut: st.code,
        niveau: n.code,
        isTreated: s.isTreated,
        closeAt: s.closeAt,
        dueDay: s.dueDay,
      })
      .from(s)
      .leftJoin(st, eq(st.id, s.statutId))
      .leftJoin(n, eq(n.id, s.niveauId))
      .where(inArray(s.code, codes))
      .orderBy(asc(s.code));
  };
  const history = async (codes: string[], action: string) => {
    const { signalements: s, signalementHistorique: h } = t.db.t;
    return t.db.read
      .select({ code: s.code, changes: h.changes })
      .from(h)
      .innerJoin(s, eq(s.id, h.signalementId))
      .where(and(inArray(s.code, codes), eq(h.action, action)))
      .orderBy(asc(s.code));
  };
  const bulkLog = async () => {
    const l = t.db.t.accessLog;
    return t.db.read
      .select({ details: l.details, email: l.userEmail, signalement: l.signalementCode })
      .from(l)
      .where(eq(l.kind, 'action_groupee'))
      .orderBy(asc(l.id));
  };
  const mailsTo = async (email: string) => {
    const m = t.db.t.mailOutbox;
    return t.db.read
      .select({ subject: m.subject, text: m.text })
      .from(m)
      .where(and(eq(m.kind, 'assignment'), eq(m.to, email)))
      .orderBy(asc(m.id));
  };

  it('changes the statut of hand-picked reports by REST: preview, action, one history entry each, one log entry', async () => {
    const codes = await reports(3);
    const picked = codes.slice(0, 2);
    const body = { codes: picked, action: { type: 'statut', statut: '/api/statuts/CLOTURE' } };
    const preview = await restPreview('creator', body);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toEqual({ '@type': 'ApercuActionGroupee', selectionnes: 2, modifies: 2 });
    const logged = (await bulkLog()).length;

    const res = await rest('creator', { ...body, attendu: 2 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ '@type': 'ActionGroupee', action: 'statut', selectionnes: 2, modifies: 2 });
    const after = await state(codes);
    expect(after.filter((r) => r.statut === 'CLOTURE').map((r) => r.code)).toEqual([...picked].sort());
    for (const r of after.filter((x) => picked.includes(x.code)))
      expect(r).toMatchObject({ isTreated: true, closeAt: expect.any(Date) });
    const entries = await history(codes, 'modification');
    expect(entries.map((e) => e.code)).toEqual([...picked].sort());
    expect(entries[0]!.changes).toMatchObject({
      statut: { from: null, to: 'Clôturé' },
      isTreated: { from: false, to: true },
      closeAt: { from: null, to: expect.any(String) },
    });
    const log = await bulkLog();
    expect(log).toHaveLength(logged + 1);
    expect(log.at(-1)).toEqual({
      email: 'createur@example.mg',
      signalement: null,
      details: { action: 'statut', statut: 'CLOTURE', selection: 'codes', selectionnes: 2, modifies: 2 },
    });

    // The same action again changes nothing and records no history.
    const again = await rest('creator', body);
    expect(again.json()).toMatchObject({ selectionnes: 2, modifies: 0 });
    expect(await history(codes, 'modification')).toHaveLength(2);
  });

  it('changes the niveau of every report of a filter by tRPC, through the list filters', async () => {
    // The reports of one creator: the list's « Créé par » filter names them.
    const cookieOf = await t.login('volume@example.mg');
    const mine: string[] = [];
    for (let i = 0; i < 3; i++) mine.push(await createReport(t, cookieOf));
    const filtre = { 'createdBy.code': [code.big] };
    const preview = await post('admin', '/trpc/signalements.bulkPreview', {
      filtre,
      action: { type: 'niveau', niveau: 'CRITIQUE' },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().result.data).toMatchObject({ selectionnes: 3, modifies: 3 });
    const res = await trpc('admin', 'signalements.bulk', {
      filtre,
      action: { type: 'niveau', niveau: 'CRITIQUE' },
      attendu: 3,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await state(mine)).map((r) => r.niveau)).toEqual(['CRITIQUE', 'CRITIQUE', 'CRITIQUE']);
    // The deadline follows the niveau (docs/decisions/0032-deadlines.md): a real due day now.
    const due = (await state(mine)).map((r) => r.dueDay);
    for (const day of due) expect(day).toBeLessThan(NO_DUE_DAY);
    const entries = await history(mine, 'modification');
    expect(entries.map((e) => e.changes)).toEqual(
      mine.map(() => ({ niveau: { from: null, to: 'Critique' } })),
    );
    expect((await bulkLog()).at(-1)!.details).toEqual({
      action: 'niveau',
      niveau: 'CRITIQUE',
      selection: 'filtre',
      filtres: filtre,
      selectionnes: 3,
      modifies: 3,
    });
    // A closed report is due no more; reopened, it has its due day back.
    const closed = await rest('admin', {
      filtre,
      action: { type: 'statut', statut: '/api/statuts/CLOTURE' },
    });
    expect(closed.json(), closed.body).toMatchObject({ modifies: 3 });
    expect((await state(mine)).map((r) => r.dueDay)).toEqual([NO_DUE_DAY, NO_DUE_DAY, NO_DUE_DAY]);
    const reopened = await rest('admin', {
      filtre,
      action: { type: 'statut', statut: '/api/statuts/EN_COURS' },
    });
    expect(reopened.json(), reopened.body).toMatchObject({ modifies: 3 });
    expect((await state(mine)).map((r) => r.dueDay)).toEqual(due);
    // Cleared with null: no niveau, no deadline.
    const cleared = await rest('admin', { filtre, action: { type: 'niveau', niveau: null } });
    expect(cleared.json()).toMatchObject({ modifies: 3 });
    expect((await state(mine)).map((r) => r.niveau)).toEqual([null, null, null]);
    expect((await state(mine)).map((r) => r.dueDay)).toEqual([NO_DUE_DAY, NO_DUE_DAY, NO_DUE_DAY]);
  });

  it('assigns and unassigns in bulk: one history entry per report, one e-mail listing the reports', async () => {
    const codes = await reports(3);
    await insertAssignment(t, codes[0]!, code.assignee);
    const mailsBefore = (await mailsTo('assigne@example.mg')).length;
    const res = await rest('creator', {
      codes,
      action: { type: 'assigner', utilisateur: `/api/utilisateurs/${code.assignee}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ selectionnes: 3, modifies: 2 });
    const assigned = await history(codes, 'assignation');
    expect(assigned.map((e) => e.code)).toEqual(codes.slice(1).sort());
    expect(assigned[0]!.changes).toEqual({ assignes: { from: [], to: ['Rakoto Assigne'] } });
    const mails = await mailsTo('assigne@example.mg');
    expect(mails).toHaveLength(mailsBefore + 1);
    expect(mails.at(-1)!.subject).toBe('Signalements : 2 signalements vous sont assignés');
    for (const c of codes.slice(1)) expect(mails.at(-1)!.text).toContain(c);
    expect(mails.at(-1)!.text).not.toContain(codes[0]!);

    const off = await trpc('creator', 'signalements.bulk', {
      codes,
      action: { type: 'desassigner', utilisateur: code.assignee },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().result.data).toMatchObject({ modifies: 3 });
    expect(await history(codes, 'desassignation')).toHaveLength(3);
    const a = t.db.t.signalementAssignees;
    const [left] = await t.db.read
      .select({ n: count() })
      .from(a)
      .where(eq(a.userId, Number(await userId(code.assignee))));
    expect(left!.n).toBe(0);
  });

  async function userId(userCode: string) {
    const u = t.db.t.utilisateurs;
    const [row] = await t.db.read.select({ id: u.id }).from(u).where(eq(u.code, userCode));
    return row!.id;
  }

  it('refuses the whole selection when one report is not editable, naming how many, and changes nothing', async () => {
    const mine = await reports(2, 'other');
    const theirs = await reports(1, 'creator');
    const logged = (await bulkLog()).length;
    const body = { codes: [...mine, ...theirs], action: { type: 'statut', statut: 'TRAITE' } };
    for (const res of [await restPreview('other', body), await rest('other', body)]) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().message).toBe(BULK_REFUSALS.notEditable(1, 3));
      expect(res.body).not.toContain(theirs[0]!);
    }
    expect((await state([...mine, ...theirs])).every((r) => r.statut === null)).toBe(true);
    expect(await history([...mine, ...theirs], 'modification')).toHaveLength(0);
    expect(await bulkLog()).toHaveLength(logged);
    // An assignee edits the report but does not hand it on (decision 0028).
    await insertAssignment(t, theirs[0]!, code.other);
    expect((await rest('other', body)).statusCode).toBe(200);
    const assign = await rest('other', {
      codes: [...mine, ...theirs],
      action: { type: 'assigner', utilisateur: code.assignee },
    });
    expect(assign.statusCode, assign.body).toBe(403);
    expect(assign.json().message).toBe(BULK_REFUSALS.notAssignable(1, 3));
  });

  it('refuses when the count differs from the confirmation, an unknown code, an empty filter, both or neither selection', async () => {
    const codes = await reports(2);
    const changed = await rest('creator', {
      codes,
      action: { type: 'statut', statut: 'EN_COURS' },
      attendu: 5,
    });
    expect(changed.statusCode, changed.body).toBe(409);
    expect(changed.json().message).toBe(BULK_REFUSALS.changed(5, 2));
    expect((await state(codes)).every((r) => r.statut === null)).toBe(true);

    const unknown = await rest('creator', {
      codes: [...codes, 'INCONNU-1'],
      action: { type: 'niveau', niveau: null },
    });
    expect(unknown.statusCode, unknown.body).toBe(404);
    expect(unknown.json().message).toBe(BULK_REFUSALS.notFound(1));
    const empty = await rest('admin', {
      filtre: { 'createdBy.code': ['PERSONNE'] },
      action: { type: 'niveau', niveau: null },
    });
    expect(empty.statusCode, empty.body).toBe(400);
    expect(empty.json().message).toBe(BULK_REFUSALS.empty);
    for (const body of [
      { codes, filtre: {}, action: { type: 'niveau', niveau: null } },
      { action: { type: 'niveau', niveau: null } },
      { codes, action: { type: 'supprimer' } },
      {
        codes: Array.from({ length: BULK_MAX + 1 }, (_, i) => `X${i}`),
        action: { type: 'niveau', niveau: null },
      },
    ]) {
      const res = await rest('admin', body);
      expect(res.statusCode, res.body.slice(0, 200)).toBe(400);
      expect(res.json().message).toMatch(/[éèà]|Choisissez|Action|signalements/);
    }
  });

  it('leaves nothing changed when a statement fails midway (the reports were already updated)', async () => {
    const codes = await reports(3);
    const s = t.db.t.signalements;
    const [last] = await t.db.read.select({ id: s.id }).from(s).where(eq(s.code, codes[2]!));
    const failing =
      engine === 'sqlite'
        ? [
            `create trigger bulk_failure before insert on signalement_historique when new.signalement_id = ${last!.id} begin select raise(abort, 'panne injectée'); end`,
          ]
        : [
            `create function bulk_failure() returns trigger language plpgsql as $$ begin if new.signalement_id = ${last!.id} then raise exception 'panne injectée'; end if; return new; end $$`,
            'create trigger bulk_failure before insert on signalement_historique for each row execute function bulk_failure()',
          ];
    for (const statement of failing) await t.db.execute(sql.raw(statement));
    const logged = (await bulkLog()).length;
    try {
      const res = await rest('creator', { codes, action: { type: 'statut', statut: 'TRAITE' } });
      expect(res.statusCode).toBe(500);
    } finally {
      await t.db.execute(
        sql.raw('drop trigger bulk_failure' + (engine === 'sqlite' ? '' : ' on signalement_historique')),
      );
      if (engine !== 'sqlite') await t.db.execute(sql.raw('drop function bulk_failure()'));
    }
    expect((await state(codes)).every((r) => r.statut === null && !r.isTreated)).toBe(true);
    expect(await history(codes, 'modification')).toHaveLength(0);
    expect(await bulkLog()).toHaveLength(logged);
    // The same action succeeds once the failure is gone.
    expect((await rest('creator', { codes, action: { type: 'statut', statut: 'TRAITE' } })).statusCode).toBe(
      200,
    );
  });

  it(
    `acts on ${BULK_MAX} reports of a filter in one transaction and refuses ${BULK_MAX + 1}`,
    { timeout: 120_000 },
    async () => {
      const { signalements: s, partenaires: p, utilisateurs: u, signalementHistorique: h } = t.db.t;
      const [creator] = await t.db.read.select({ id: u.id }).from(u).where(eq(u.code, code.other));
      const [ivy] = await t.db.read.select({ id: p.id }).from(p).where(eq(p.code, 'IVY'));
      // One more report than the cap, a day earlier than the others so a date filter leaves exactly the cap.
      const day = (d: string) => new Date(`${d}T09:00:00Z`);
      await t.db.transaction(async (tx) => {
        for (let start = 0; start <= BULK_MAX; start += 1000) {
          const rows = [];
          for (let i = start; i < Math.min(start + 1000, BULK_MAX + 1); i++) {
            rows.push({
              code: `VOL-${String(i).padStart(5, '0')}`,
              signalementAt: i === BULK_MAX ? day('2020-01-01') : day('2020-01-02'),
              createdById: creator!.id,
              partenaireId: ivy!.id,
              lastActionAt: new Date(),
            });
          }
          await tx.insert(s).values(rows);
        }
      });
      const action = { type: 'statut', statut: 'EN_ENQUETE' };
      const filtre = {
        'createdBy.code': [code.other],
        signalementAt: { after: '2020-01-01', before: '2020-01-02' },
      };
      const tooMany = await rest('other', { filtre, action });
      expect(tooMany.statusCode, tooMany.body).toBe(400);
      expect(tooMany.json().message).toBe(BULK_REFUSALS.tooMany);

      const capped = { ...filtre, signalementAt: { after: '2020-01-02', before: '2020-01-02' } };
      const res = await rest('other', { filtre: capped, action, attendu: BULK_MAX });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ selectionnes: BULK_MAX, modifies: BULK_MAX });
      const [entries] = await t.db.read
        .select({ n: count() })
        .from(h)
        .innerJoin(s, eq(s.id, h.signalementId))
        .where(
          and(eq(s.createdById, creator!.id), eq(h.action, 'modification'), sql`${s.code} like 'VOL-%'`),
        );
      expect(entries!.n).toBe(BULK_MAX);
      // The dashboard's day counts follow the 10,000 changes (PostgreSQL: once per statement, decision 0035).
      const { signalementDayCounts: c, statuts: st } = t.db.t;
      const [enquete] = await t.db.read.select({ id: st.id }).from(st).where(eq(st.code, 'EN_ENQUETE'));
      const [stored] = await t.db.read
        .select({ n: sql<number>`coalesce(sum(${c.n}), 0)`.mapWith(Number) })
        .from(c)
        .where(and(eq(c.dimension, 'statut'), eq(c.refId, enquete!.id)));
      const [live] = await t.db.read.select({ n: count() }).from(s).where(eq(s.statutId, enquete!.id));
      expect(stored!.n).toBe(live!.n);
      expect(live!.n).toBe(BULK_MAX);
      // The same 10,000 hand-picked: one statement's worth of codes on both engines, already changed.
      const codes = Array.from({ length: BULK_MAX }, (_, i) => `VOL-${String(i).padStart(5, '0')}`);
      const picked = await restPreview('other', { codes, action });
      expect(picked.statusCode, picked.body.slice(0, 200)).toBe(200);
      expect(picked.json()).toMatchObject({ selectionnes: BULK_MAX, modifies: 0 });
    },
  );
});
