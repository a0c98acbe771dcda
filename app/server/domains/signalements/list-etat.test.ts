// The list's state filter (« Ouverts » / « Traités ou clos », etat=ouvert|traite) on both doors and both
// engines: alone and with « Assigné à » or « Non assigné », its totals equal the dashboard's « Mes dossiers »
// counts (which the cards open the list on), and an unknown state is a French 400.
import { beforeAll, describe, expect, it } from 'vitest';
import { ETAT_INVALID } from '#shared/schemas/signalements';
import { testEngines } from '#tests/helpers/db';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport, mergePatch } from '#tests/helpers/signalements';
import { serverSuite } from '#tests/helpers/suite';

describe.each(await testEngines())('the state filter on %s', (engine) => {
  const suite = serverSuite(engine);
  const t = suite.app;
  const code = { open: '', treated: '', closed: '', unassignedOpen: '', unassignedTreated: '' };

  const send = (cookie: string, url: string, body?: unknown) =>
    t.app.inject({
      method: body === undefined ? 'GET' : 'POST',
      url,
      headers: {
        cookie,
        ...SAME_ORIGIN,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const setStatut = async (report: string, statut: string) => {
    const res = await mergePatch(t, suite.admin.cookie, `/api/signalements/${report}`, {
      statut: `/api/statuts/${statut}`,
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    for (const key of Object.keys(code) as Array<keyof typeof code>) {
      code[key] = await createReport(t, suite.admin.cookie);
    }
    for (const report of [code.open, code.treated, code.closed]) {
      const res = await send(suite.admin.cookie, `/api/signalements/${report}/assignes`, {
        utilisateur: `/api/utilisateurs/${suite.user.code}`,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    await setStatut(code.treated, 'TRAITE');
    await setStatut(code.closed, 'CLOTURE');
    await setStatut(code.unassignedTreated, 'TRAITE');
  });

  const rest = async (cookie: string, query: string) => {
    const res = await send(cookie, `/api/signalements?itemsPerPage=100&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { member: Array<{ code: string }>; totalItems: number };
    return { codes: body.member.map((m) => m.code).sort(), total: body.totalItems };
  };
  const viaTrpc = async (cookie: string, input: unknown) => {
    const res = await send(
      cookie,
      `/trpc/signalements.list?input=${encodeURIComponent(JSON.stringify(input))}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().result.data as { items: Array<{ code: string }>; total: number };
    return { codes: data.items.map((m) => m.code).sort(), total: data.total };
  };
  const sorted = (...codes: string[]) => [...codes].sort();

  it('lists the open reports, or the treated and closed ones, alone and with « Assigné à »', async () => {
    const admin = suite.admin.cookie;
    const mine = `assignees.code[]=${suite.user.code}`;
    expect(await rest(admin, 'etat=ouvert')).toEqual({
      codes: sorted(code.open, code.unassignedOpen),
      total: 2,
    });
    expect(await rest(admin, 'etat=traite')).toEqual({
      codes: sorted(code.treated, code.closed, code.unassignedTreated),
      total: 3,
    });
    expect(await rest(suite.user.cookie, `${mine}&etat=ouvert`)).toEqual({ codes: [code.open], total: 1 });
    expect(await rest(suite.user.cookie, `${mine}&etat=traite`)).toEqual({
      codes: sorted(code.treated, code.closed),
      total: 2,
    });
    expect(await viaTrpc(suite.user.cookie, { 'assignees.code': [suite.user.code], etat: 'traite' })).toEqual(
      { codes: sorted(code.treated, code.closed), total: 2 },
    );
  });

  it('gives the dashboard cards’ lists the cards’ numbers: my open cases, the open unassigned reports', async () => {
    const mine = await send(suite.user.cookie, '/api/dashboard/mes-dossiers');
    expect(mine.statusCode, mine.body).toBe(200);
    const myList = await rest(suite.user.cookie, `assignees.code[]=${suite.user.code}&etat=ouvert`);
    expect(myList.total).toBe(mine.json().ouverts);
    expect((await rest(suite.user.cookie, `assignees.code[]=${suite.user.code}`)).total).toBe(3);

    const all = await send(suite.admin.cookie, '/api/dashboard/mes-dossiers');
    const unassigned = await rest(suite.admin.cookie, 'exists[assignees]=false&etat=ouvert');
    expect(unassigned).toEqual({ codes: [code.unassignedOpen], total: all.json().nonAssignes });
    expect(await viaTrpc(suite.admin.cookie, { exists: { assignees: false }, etat: 'ouvert' })).toEqual(
      unassigned,
    );
    expect(await viaTrpc(suite.admin.cookie, { exists: { assignees: false }, etat: 'traite' })).toEqual({
      codes: [code.unassignedTreated],
      total: 1,
    });
  });

  it('refuses an unknown state with a French 400 on both doors', async () => {
    const res = await send(suite.user.cookie, '/api/signalements?etat=clos');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(ETAT_INVALID);
    const trpc = await send(
      suite.user.cookie,
      `/trpc/signalements.list?input=${encodeURIComponent(JSON.stringify({ etat: 'ferme' }))}`,
    );
    expect(trpc.statusCode).toBe(400);
    expect(trpc.body).toContain(ETAT_INVALID);
  });
});
