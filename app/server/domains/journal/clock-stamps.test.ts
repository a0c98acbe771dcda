// Writes stamp their time with the context's clock (server/context.ts), never the machine's: the report's
// history and its last action, the access log (log-in, a read of people, an assignment, an export) and
// the alerts. With the services' clock fixed in the past, every row these writes leave carries that
// instant, on both engines.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport, mergePatch } from '#tests/helpers/signalements';

const FIXED = new Date('2026-03-04T05:06:07.000Z');

describe.each(await testEngines())('times stamped by the context clock on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let agentCode: string;
  let code: string;
  beforeAll(async () => {
    t = await createTestApp(engine, {}, { clock: { now: () => FIXED } });
    await t.user('chef@example.mg', 'ROLE_ADMIN', 'Rasoa Chef');
    agentCode = await t.user('agent@example.mg', 'ROLE_USER', 'Rabe Agent');
    admin = await t.login('chef@example.mg');
    code = await createReport(t, admin);
  });
  afterAll(async () => t?.close());

  const send = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { cookie: admin, ...SAME_ORIGIN },
      ...(payload ? { payload } : {}),
    });

  it('stamps the report history and its last action', async () => {
    const res = await mergePatch(t, admin, `/api/signalements/${code}`, { description: 'Complétée.' });
    expect(res.statusCode, res.body).toBe(200);
    const { signalements: s, signalementHistorique: h } = t.db.t;
    const [report] = await t.db.read
      .select({ id: s.id, lastActionAt: s.lastActionAt })
      .from(s)
      .where(eq(s.code, code));
    expect(report!.lastActionAt).toEqual(FIXED);
    const history = await t.db.read
      .select({ action: h.action, at: h.at })
      .from(h)
      .where(eq(h.signalementId, report!.id));
    expect(history.map((e) => e.action).sort()).toEqual(['creation', 'modification']);
    for (const entry of history) expect(entry.at).toEqual(FIXED);
  });

  it('stamps the access log: log-in, a read of people, an assignment, an export', async () => {
    const source = await send('POST', '/api/sources', {
      nomPrenom: 'Rasoa Source',
      signalement: `/api/signalements/${code}`,
    });
    expect(source.statusCode, source.body).toBe(201);
    const read = await send('GET', `/api/signalements/${code}/source`);
    expect(read.statusCode, read.body).toBe(200);
    const assigned = await send('POST', `/api/signalements/${code}/assignes`, {
      utilisateur: `/api/utilisateurs/${agentCode}`,
    });
    expect(assigned.statusCode, assigned.body).toBe(201);
    const exported = await send('GET', '/api/signalements/export/list');
    expect(exported.statusCode, exported.body).toBe(200);
    const l = t.db.t.accessLog;
    const entries = await t.db.read
      .select({ kind: l.kind, at: l.at })
      .from(l)
      .where(eq(l.userEmail, 'chef@example.mg'));
    const kinds = new Set(entries.map((e) => e.kind));
    for (const kind of ['connexion', 'lecture_personnes', 'droits', 'export']) expect(kinds).toContain(kind);
    for (const entry of entries) expect(entry.at, entry.kind).toEqual(FIXED);
  });
});
