// Decisions 0015, 0016 and 0017 in one suite on both engines: a non-creator never receives a protected
// source's identity by any path; every people read and export lands in the access log with the right
// user and report; a burst raises an alert and an e-mail; the raw database holds no source name;
// log-in with TOTP works and without it fails for an administrator. Each rule has its detailed suite
// beside its code (personnes/need-to-know, journal/*, crypto/*, auth/two-factor); this one walks the
// whole story a reviewer would check.
import ExcelJS from 'exceljs';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AccessAlertDto } from '#shared/dto/journal';
import { testEngines } from '#tests/helpers/db';
import { serverSuite } from '#tests/helpers/suite';
import { accessLogRows, userId } from '#tests/helpers/journal';
import { rawCopy } from '#tests/helpers/raw-copy';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport } from '#tests/helpers/signalements';

const SOURCES = [
  { nomPrenom: 'Rakotondrabe Hery-Protege', contact: '+261 34 55 901 27' },
  { nomPrenom: 'Andriamihaja Voahangy-Protegee', contact: '+261 33 41 776 08' },
  { nomPrenom: 'Ratsimbazafy Tiana-Protegee', contact: '+261 32 19 640 55' },
];
const secretsOf = (s: (typeof SOURCES)[number]) => [
  s.nomPrenom,
  s.contact,
  s.nomPrenom.split(' ')[0]!,
  s.contact.slice(-9),
];
const SECRETS = SOURCES.flatMap(secretsOf);

describe.each(await testEngines())('protection of the people in reports on %s', (engine) => {
  const suite = serverSuite(engine, {
    env: { ACCESS_ALERT_READS: '3' },
    admin: { email: 'chef@example.mg', nomPrenom: 'Rasoa Chef' },
    user: { email: 'createur@example.mg', nomPrenom: 'Rabe Createur' },
  });
  const t = suite.app;
  const reports: string[] = [];
  const cookie = { creator: '', other: '', admin: '' };
  let otherCode: string;
  type Caller = keyof typeof cookie;

  const send = (caller: Caller, method: 'GET' | 'POST', url: string, body?: unknown, ip = '10.11.0.1') =>
    t.app.inject({
      method,
      url,
      remoteAddress: ip,
      headers: {
        cookie: cookie[caller],
        ...SAME_ORIGIN,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const trpcQuery = (caller: Caller, path: string, input?: unknown) =>
    send(
      caller,
      'GET',
      `/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
    );
  const hits = async (caller: Caller, search: string) =>
    (await send(caller, 'GET', `/api/signalements?search=${encodeURIComponent(search)}`)).json()
      .totalItems as number;

  beforeAll(async () => {
    otherCode = await t.user('autre@example.mg', 'ROLE_USER', 'Rakoto Autre');
    cookie.creator = suite.user.cookie;
    cookie.other = await t.login('autre@example.mg');
    cookie.admin = suite.admin.cookie; // its second factor enrolled by the fixture
    for (const source of SOURCES) {
      const report = await createReport(t, cookie.creator);
      const created = await send('creator', 'POST', '/api/sources', {
        signalement: `/api/signalements/${report}`,
        ...source,
        canaux: ['/api/canals/TELEPHONE'],
      });
      expect(created.statusCode, created.body).toBe(201);
      const anonymous = await t.app.inject({
        method: 'PATCH',
        url: `/api/signalements/${report}`,
        headers: { cookie: cookie.creator, ...SAME_ORIGIN, 'content-type': 'application/merge-patch+json' },
        payload: JSON.stringify({ isAnonyme: true }),
      });
      expect(anonymous.statusCode, anonymous.body).toBe(200);
      reports.push(report);
    }
  });

  it('never gives a protected source to a user who is not the creator, by any path', async () => {
    const report = reports[0]!;
    const bodies: string[] = [];
    for (const res of [
      await send('other', 'GET', `/api/signalements/${report}/source`),
      await trpcQuery('other', 'sources.list', { signalement: report }),
      await send('other', 'GET', `/api/signalements/${report}/historique`),
      await trpcQuery('other', 'signalements.historique', { code: report }),
      await send('other', 'GET', `/api/signalements/${report}`),
      await trpcQuery('other', 'signalements.get', { code: report }),
      await send('other', 'GET', `/api/signalements/export/list?search=${report}`),
      await send('other', 'GET', `/api/signalements?search=${report}`),
    ]) {
      expect(res.statusCode, res.body).toBe(200);
      bodies.push(res.body);
    }
    const xlsx = await send('other', 'GET', `/api/signalements/export/xlsx?search=${report}`);
    expect(xlsx.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    workbook.eachSheet((sheet) => sheet.eachRow((row) => bodies.push(JSON.stringify(row.values))));
    const seen = bodies.join('\n').toLowerCase();
    for (const secret of secretsOf(SOURCES[0]!)) expect(seen, secret).not.toContain(secret.toLowerCase());
    expect((await send('other', 'GET', `/api/signalements/${report}/source`)).json()).toMatchObject({
      sources: [],
      sourcesProtegees: 1,
    });

    // The exact-name search (blind index) does not reveal them either; their creator still finds them.
    expect(await hits('other', SOURCES[0]!.nomPrenom)).toBe(0);
    expect(await hits('creator', SOURCES[0]!.nomPrenom)).toBe(1);
    expect(await hits('admin', SOURCES[0]!.nomPrenom)).toBe(1);
  });

  it('writes every read of people and every export to the access log with the right user, report and address', async () => {
    const id = await userId(t, otherCode);
    const before = (await accessLogRows(t)).length;
    await send('other', 'GET', `/api/signalements/${reports[0]}/auteurs`, undefined, '10.11.0.42');
    await trpcQuery('other', 'victimes.list', { signalement: reports[0] });
    await send('other', 'GET', `/api/signalements/export/xlsx?search=${reports[0]}`, undefined, '10.11.0.42');
    const added = (await accessLogRows(t)).slice(before);
    expect(added.map((e) => [e.kind, e.userId, e.signalementCode])).toEqual([
      ['lecture_personnes', id, reports[0]],
      ['lecture_personnes', id, reports[0]],
      ['export', id, null],
    ]);
    expect(added[0]).toMatchObject({
      address: '10.11.0.42',
      userEmail: 'autre@example.mg',
      details: { personnes: 'auteurs' },
    });
    expect(added[2]!.details).toMatchObject({
      format: 'xlsx',
      lignes: 1,
      filtres: { recherche: { type: 'code', code: reports[0] } },
    });

    // The first test's reads are there too: sources (masked for this user) and history, by both doors.
    const sourceReads = (await accessLogRows(t, 'lecture_personnes')).filter(
      (e) => e.userId === id && e.details.personnes === 'sources',
    );
    expect(sourceReads.length).toBeGreaterThanOrEqual(3);
    expect(sourceReads[0]!.details).toMatchObject({ protegees: true, masquees: 1 });
  });

  it('raises one alert, seen on the dashboard and e-mailed to the administrators, on a burst of reading', async () => {
    const alerts = async (): Promise<AccessAlertDto[]> =>
      (await trpcQuery('admin', 'journal.alerts')).json().result.data;
    // reports[0] was read already: two more reports reach the threshold of 3.
    for (const report of reports.slice(1)) await send('other', 'GET', `/api/signalements/${report}/source`);
    const raised = await alerts();
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ kind: 'lecture_massive', utilisateur: { code: otherCode } });
    const o = t.db.t.mailOutbox;
    const mails = await t.db.read
      .select()
      .from(o)
      .where(and(eq(o.kind, 'access-alert'), eq(o.to, 'chef@example.mg')));
    expect(mails).toHaveLength(1);
    // Plain users see no alert.
    expect((await trpcQuery('other', 'journal.alerts')).statusCode).toBe(403);
  });

  it('keeps no source name or phone number in a raw copy of the database', async () => {
    const raw = (await rawCopy(t)).toLowerCase();
    expect(raw).toContain(reports[0]!.toLowerCase()); // the copy is readable: the check can fail
    for (const secret of SECRETS) expect(raw, secret).not.toContain(secret.toLowerCase());
  });

  it('opens an administrator session only with the second factor', async () => {
    const { cookie: pending, twoFactor } = await t.loginPasswordOnly('chef@example.mg');
    expect(twoFactor).toBe('verify');
    const users = (c: string) => t.app.inject({ url: '/api/utilisateurs?page=1', headers: { cookie: c } });
    expect((await users(pending)).statusCode).toBe(403);
    const verify = (code: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/two-factor/verify',
        headers: { cookie: pending, ...SAME_ORIGIN, 'content-type': 'application/json' },
        payload: JSON.stringify({ code }),
      });
    const wrong = String((Number(t.totp('chef@example.mg')) + 500_000) % 1_000_000).padStart(6, '0');
    expect((await verify(wrong)).statusCode).toBe(400);
    expect((await users(pending)).statusCode).toBe(403);
    expect((await verify(t.totp('chef@example.mg'))).statusCode).toBe(204);
    expect((await users(pending)).statusCode).toBe(200);
    const failures = (await accessLogRows(t, 'echec_connexion')).filter(
      (e) => e.userEmail === 'chef@example.mg',
    );
    expect(failures.at(-1)!.details).toMatchObject({ motif: 'code_incorrect' });
  });
});
