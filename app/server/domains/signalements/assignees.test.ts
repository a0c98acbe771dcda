// Assignment (docs/decisions/0028): the creator and administrators assign and unassign; an assignee has
// the creator's rights on that report (edit, people, need to know on protected sources) and nobody else
// gains them; each change is in the history, the access log (« droits ») and, for an assignment, the
// outbox; disabling an account ends its assignments. Both doors, both engines.
import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROLE_ADMIN, ROLE_USER } from '#shared/constants';
import { testEngines } from '#tests/helpers/db';
import { addPeople, PEOPLE, SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport, mergePatch } from '#tests/helpers/signalements';
import { serverSuite } from '#tests/helpers/suite';
import { READ_ONLY_MESSAGE } from './access';
import { ASSIGN_MESSAGES } from './assignees';

describe.each(await testEngines())('assignment on %s', (engine) => {
  const suite = serverSuite(engine, { user: { email: 'createur@example.mg', nomPrenom: 'Rabe Createur' } });
  const t = suite.app;
  const cookie = { creator: '', assignee: '', other: '', admin: '' };
  type Caller = keyof typeof cookie;
  const code = { assignee: '', other: '', disabled: '' };
  let report: string;

  beforeAll(async () => {
    code.assignee = await t.user('assignee@example.mg', 'ROLE_USER', 'Rakoto Assigne');
    code.other = await t.user('autre@example.mg', 'ROLE_USER', 'Randria Autre');
    code.disabled = await t.user('parti@example.mg', 'ROLE_USER', 'Rasoa Partie');
    cookie.creator = suite.user.cookie;
    cookie.admin = suite.admin.cookie;
    cookie.assignee = await t.login('assignee@example.mg');
    cookie.other = await t.login('autre@example.mg');
    const off = await trpc('admin', 'utilisateurs.update', { code: code.disabled, isEnabled: false });
    expect(off.statusCode, off.body).toBe(200);
    report = await createReport(t, cookie.creator);
    await addPeople(t, cookie.creator, report);
    const anonymous = await mergePatch(t, cookie.creator, `/api/signalements/${report}`, { isAnonyme: true });
    expect(anonymous.statusCode, anonymous.body).toBe(200);
  });

  function send(caller: Caller, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) {
    return t.app.inject({
      method,
      url,
      headers: {
        cookie: cookie[caller],
        ...SAME_ORIGIN,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  }
  const trpc = (caller: Caller, path: string, input: unknown) => send(caller, 'POST', `/trpc/${path}`, input);
  const trpcQuery = (caller: Caller, path: string, input?: unknown) =>
    send(
      caller,
      'GET',
      `/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
    );
  const restAssign = (caller: Caller, user: string) =>
    send(caller, 'POST', `/api/signalements/${report}/assignes`, {
      utilisateur: `/api/utilisateurs/${user}`,
    });
  const patch = (caller: Caller) =>
    mergePatch(t, cookie[caller], `/api/signalements/${report}`, { description: `Par ${caller}` });
  const sourcesSeenBy = async (caller: Caller) => {
    const res = await send(caller, 'GET', `/api/signalements/${report}/source`);
    expect(res.statusCode, res.body).toBe(200);
    return JSON.stringify(res.json()).includes(PEOPLE.source);
  };
  const reportAs = async (caller: Caller) => {
    const res = await send(caller, 'GET', `/api/signalements/${report}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { canEdit: boolean; canAssign: boolean; assignees: Array<{ code: string }> };
  };
  const assignmentMails = () =>
    t.db.read
      .select({ to: t.db.t.mailOutbox.to, subject: t.db.t.mailOutbox.subject, text: t.db.t.mailOutbox.text })
      .from(t.db.t.mailOutbox)
      .where(eq(t.db.t.mailOutbox.kind, 'assignment'))
      .orderBy(asc(t.db.t.mailOutbox.id));
  const history = async (action: string) => {
    const res = await send('admin', 'GET', `/api/signalements/${report}/historique`);
    const items = res.json().member as Array<{ action: string; changes: Record<string, unknown> }>;
    return items.filter((e) => e.action === action);
  };
  const rightsLog = () => {
    const l = t.db.t.accessLog;
    return t.db.read
      .select({ details: l.details, email: l.userEmail })
      .from(l)
      .where(and(eq(l.kind, 'droits'), eq(l.signalementCode, report)))
      .orderBy(asc(l.id));
  };

  it('gives nobody but the creator and administrators the report before an assignment', async () => {
    expect(await reportAs('assignee')).toMatchObject({ canEdit: false, canAssign: false, assignees: [] });
    expect((await patch('assignee')).statusCode).toBe(403);
    expect(await sourcesSeenBy('assignee')).toBe(false);
    expect(await sourcesSeenBy('creator')).toBe(true);
  });

  it('refuses assignment to whoever is neither the creator nor an administrator', async () => {
    for (const caller of ['assignee', 'other'] as const) {
      const res = await restAssign(caller, code.assignee);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().message).toBe(ASSIGN_MESSAGES.forbidden);
    }
    expect(await reportAs('creator')).toMatchObject({ canAssign: true, assignees: [] });
  });

  it('refuses a disabled or unknown account', async () => {
    const disabled = await restAssign('creator', code.disabled);
    expect(disabled.statusCode, disabled.body).toBe(400);
    expect(disabled.json().message).toBe(ASSIGN_MESSAGES.disabledUser);
    const unknown = await restAssign('creator', 'PERSONNE');
    expect(unknown.statusCode, unknown.body).toBe(400);
  });

  it('assigns by REST: the assignee edits, reads protected sources and is e-mailed a link; others still cannot', async () => {
    const res = await restAssign('creator', code.assignee);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      '@type': 'Assignation',
      utilisateur: { code: code.assignee, nomPrenom: 'Rakoto Assigne' },
      assignedBy: { nomPrenom: 'Rabe Createur' },
    });
    expect(res.headers.location).toBe(`/api/signalements/${report}/assignes/${code.assignee}`);

    expect(await reportAs('assignee')).toMatchObject({
      canEdit: true,
      canAssign: false,
      assignees: [{ code: code.assignee }],
    });
    expect((await patch('assignee')).statusCode).toBe(200);
    expect(await sourcesSeenBy('assignee')).toBe(true);
    expect((await patch('other')).statusCode).toBe(403);
    expect(await sourcesSeenBy('other')).toBe(false);
    // An assignee does not hand the report on.
    expect((await restAssign('assignee', code.other)).statusCode).toBe(403);

    const mails = await assignmentMails();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe('assignee@example.mg');
    expect(mails[0]!.subject).toContain(report);
    expect(mails[0]!.text).toContain(`/admin/signalement/detail/${report}`);
    expect(mails[0]!.text).not.toContain(PEOPLE.source);

    expect(await history('assignation')).toEqual([
      expect.objectContaining({ changes: { assignes: { from: [], to: ['Rakoto Assigne'] } } }),
    ]);
    expect(await rightsLog()).toEqual([
      { email: 'createur@example.mg', details: { action: 'assignation', utilisateur: code.assignee } },
    ]);
  });

  it('refuses a second assignment of the same person, with no second e-mail', async () => {
    const again = await restAssign('admin', code.assignee);
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().message).toBe(ASSIGN_MESSAGES.alreadyAssigned);
    expect(await assignmentMails()).toHaveLength(1);
  });

  it('lists the assignees by both doors, names only', async () => {
    const rest = await send('other', 'GET', `/api/signalements/${report}/assignes`);
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json()).toMatchObject({ '@type': 'Collection', totalItems: 1 });
    const viaTrpc = await trpcQuery('other', 'signalements.assignees', { code: report });
    expect(viaTrpc.json().result.data).toEqual(rest.json().member);
    expect(rest.body).not.toContain('assignee@example.mg');
  });

  it('filters the list on the assignee and on « Non assigné », and counts my open cases', async () => {
    const other = await createReport(t, cookie.creator);
    const list = async (query: string) => {
      const res = await send('assignee', 'GET', `/api/signalements?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().member as Array<{ code: string }>).map((r) => r.code);
    };
    expect(await list(`assignees.code[]=${code.assignee}`)).toEqual([report]);
    expect(await list(`assignees.code[]=${code.other}`)).toEqual([]);
    const unassigned = await list('exists[assignees]=false&itemsPerPage=100');
    expect(unassigned).toContain(other);
    expect(unassigned).not.toContain(report);
    expect(await list('exists[assignees]=true')).toEqual([report]);
    const viaTrpc = await trpcQuery('assignee', 'signalements.list', { 'assignees.code': [code.assignee] });
    expect(viaTrpc.json().result.data.items.map((r: { code: string }) => r.code)).toEqual([report]);

    const mine = await trpcQuery('assignee', 'dashboard.myCases');
    expect(mine.json().result.data).toEqual({
      ouverts: 1,
      enRetard: 0,
      nonAssignes: null,
      enRetardTous: null,
    });
    const admin = await send('admin', 'GET', '/api/dashboard/mes-dossiers');
    expect(admin.json()).toMatchObject({ ouverts: 0, nonAssignes: expect.any(Number) });
    expect(admin.json().nonAssignes).toBeGreaterThanOrEqual(1);
  });

  it('unassigns by tRPC: the rights end, with history and access log', async () => {
    const res = await trpc('creator', 'signalements.unassign', { code: report, utilisateur: code.assignee });
    expect(res.statusCode, res.body).toBe(200);
    expect(await reportAs('assignee')).toMatchObject({ canEdit: false, assignees: [] });
    expect((await patch('assignee')).statusCode).toBe(403);
    expect(await sourcesSeenBy('assignee')).toBe(false);
    expect(await history('desassignation')).toEqual([
      expect.objectContaining({ changes: { assignes: { from: ['Rakoto Assigne'], to: [] } } }),
    ]);
    expect((await rightsLog()).at(-1)).toEqual({
      email: 'createur@example.mg',
      details: { action: 'desassignation', utilisateur: code.assignee },
    });
    const twice = await trpc('creator', 'signalements.unassign', {
      code: report,
      utilisateur: code.assignee,
    });
    expect(twice.statusCode).toBe(404);
  });

  it('ends every assignment of a disabled account, so its reports show « Non assigné »', async () => {
    const res = await trpc('admin', 'signalements.assign', { code: report, utilisateur: code.other });
    expect(res.statusCode, res.body).toBe(200);
    expect(await reportAs('other')).toMatchObject({ canEdit: true });
    const off = await trpc('admin', 'utilisateurs.update', { code: code.other, isEnabled: false });
    expect(off.statusCode, off.body).toBe(200);

    expect(await reportAs('creator')).toMatchObject({ assignees: [] });
    const left = await send('admin', 'GET', `/api/signalements/${report}/assignes`);
    expect(left.json().totalItems).toBe(0);
    const unassigned = await send(
      'admin',
      'GET',
      '/api/signalements?exists[assignees]=false&itemsPerPage=100',
    );
    expect((unassigned.json().member as Array<{ code: string }>).map((r) => r.code)).toContain(report);
    expect((await history('desassignation')).at(0)).toMatchObject({
      changes: { assignes: { from: ['Randria Autre'], to: [] } },
    });
    expect((await rightsLog()).at(-1)).toEqual({
      email: 'admin@example.mg',
      details: { action: 'desassignation', utilisateur: code.other, motif: 'compte_desactive' },
    });
  });

  it("stamps an assignment with the context's clock and names who made it, by both doors", async () => {
    const at = new Date('2026-03-04T05:06:07.000Z');
    const clock = t.ctx.clock;
    t.ctx.clock = { now: () => at };
    try {
      const res = await restAssign('admin', code.assignee);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        assignedAt: at.toISOString(),
        assignedBy: { code: suite.admin.code, nomPrenom: 'Rasoa Admin' },
      });
    } finally {
      t.ctx.clock = clock;
    }
    const viaTrpc = await trpcQuery('admin', 'signalements.assignees', { code: report });
    expect(viaTrpc.json().result.data).toMatchObject([
      {
        utilisateur: { code: code.assignee },
        assignedAt: at.toISOString(),
        assignedBy: { code: suite.admin.code, nomPrenom: 'Rasoa Admin' },
      },
    ]);
  });

  it('assigns an account of any role: an administrator as well as a user', async () => {
    const fresh = await createReport(t, cookie.creator);
    for (const role of [ROLE_ADMIN, ROLE_USER]) {
      const user = await t.user(`role-${role.toLowerCase()}@example.mg`, role, `Rado ${role}`);
      const res = await trpc('creator', 'signalements.assign', { code: fresh, utilisateur: user });
      expect(res.statusCode, res.body).toBe(200);
    }
    const listed = await trpcQuery('creator', 'signalements.assignees', { code: fresh });
    expect(
      listed.json().result.data.map((a: { utilisateur: { nomPrenom: string } }) => a.utilisateur.nomPrenom),
    ).toEqual(expect.arrayContaining([`Rado ${ROLE_ADMIN}`, `Rado ${ROLE_USER}`]));
  });

  it("gives an assignee the creator's rights on people and the partner's e-mail, and takes them back on unassignment", async () => {
    const partnerEmail = 'contact@partenaire-assigne.example.mg';
    const partner = await send('admin', 'POST', '/api/partenaires', {
      designation: 'Partenaire assigné',
      email: partnerEmail,
    });
    expect(partner.statusCode, partner.body).toBe(201);
    const fresh = await createReport(t, cookie.creator, {
      partenaire: `/api/partenaires/${partner.json().code}`,
    });
    const signalement = `/api/signalements/${fresh}`;
    const content = 'Bonjour, un signalement vous concerne.';
    const outbox = async () =>
      (await t.db.read.select().from(t.db.t.mailOutbox)).filter((m) => m.kind === 'partner-notification');
    const people = {
      presume_auteurs: { nomPrenom: 'Rakotobe Auteur-Assigné', fonction: 'Maire' },
      sources: { nomPrenom: 'Ravelo Source-Assignée', canaux: ['/api/canals/TELEPHONE'] },
      victimes: { nomPrenom: 'Razafy Victime-Assignée' },
    } as const;
    /** What the assignee may do: add and edit each kind of person, write to the partner by both doors. */
    const act = async () => {
      const statuses: number[] = [];
      for (const [kind, person] of Object.entries(people)) {
        const created = await send('assignee', 'POST', `/api/${kind}`, { ...person, signalement });
        statuses.push(created.statusCode);
        const target = created.statusCode === 201 ? created.json().code : codes[kind];
        const edited = await send('assignee', 'PATCH', `/api/${kind}/${target}`, {
          ...person,
          nomPrenom: `${person.nomPrenom} bis`,
        });
        statuses.push(edited.statusCode);
        if (edited.statusCode === 403) expect(edited.json().message).toBe(READ_ONLY_MESSAGE);
      }
      const viaRest = await send('assignee', 'POST', `/api/signalement/${fresh}/notify-partner`, {
        email: partnerEmail,
        content,
      });
      const viaTrpc = await trpc('assignee', 'signalements.notifyPartner', {
        code: fresh,
        email: partnerEmail,
        content,
      });
      return [...statuses, viaRest.statusCode, viaTrpc.statusCode];
    };
    // People the creator added, for the edits once the assignee no longer creates any.
    const codes: Record<string, string> = {};
    for (const [kind, person] of Object.entries(people)) {
      const res = await send('creator', 'POST', `/api/${kind}`, { ...person, signalement });
      expect(res.statusCode, res.body).toBe(201);
      codes[kind] = res.json().code;
    }

    expect(await act()).toEqual(Array(8).fill(403));
    expect(await outbox()).toHaveLength(0);

    const assigned = await trpc('creator', 'signalements.assign', {
      code: fresh,
      utilisateur: code.assignee,
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(await act()).toEqual([201, 200, 201, 200, 201, 200, 200, 200]);
    expect((await outbox()).map((m) => m.to)).toEqual([partnerEmail, partnerEmail]);

    const unassigned = await trpc('creator', 'signalements.unassign', {
      code: fresh,
      utilisateur: code.assignee,
    });
    expect(unassigned.statusCode, unassigned.body).toBe(200);
    expect(await act()).toEqual(Array(8).fill(403));
    expect(await outbox()).toHaveLength(2);
  });
});
