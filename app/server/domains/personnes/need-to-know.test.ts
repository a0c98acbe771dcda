// Need to know (docs/decisions/0015): the sources of an anonymous report reach only its creator and
// administrators, by every door. Raw bodies are searched for the source's name and contact, so a leak
// through any field (history, exports, search) fails the test.
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { serverSuite } from '#tests/helpers/suite';
import { addPeople, PEOPLE, SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport } from '#tests/helpers/signalements';

const DESCRIPTION = 'Témoin direct, habite près du bureau';
const SECRETS = [PEOPLE.source, PEOPLE.sourceContact, DESCRIPTION];

describe.each(await testEngines())('need to know for sources on %s', (engine) => {
  const suite = serverSuite(engine, { user: { email: 'createur@example.mg', nomPrenom: 'Rabe Createur' } });
  const t = suite.app;
  const cookie: Record<'creator' | 'other' | 'admin', string> = { creator: '', other: '', admin: '' };
  let report: string;
  let source: string;

  beforeAll(async () => {
    await t.user('autre@example.mg', 'ROLE_USER', 'Rakoto Autre');
    cookie.creator = suite.user.cookie;
    cookie.other = await t.login('autre@example.mg');
    cookie.admin = suite.admin.cookie;
    report = await createReport(t, cookie.creator);
    source = (await addPeople(t, cookie.creator, report)).source;
    // A modification, so the history holds old → new values of the source.
    const edited = await send('creator', 'PATCH', `/api/sources/${source}`, {
      nomPrenom: PEOPLE.source,
      contact: PEOPLE.sourceContact,
      description: DESCRIPTION,
      canaux: ['/api/canals/TELEPHONE'],
    });
    expect(edited.statusCode, edited.body).toBe(200);
  });

  type Caller = keyof typeof cookie;
  function send(caller: Caller, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) {
    return t.app.inject({
      method,
      url,
      headers: {
        cookie: cookie[caller],
        ...SAME_ORIGIN,
        ...(body === undefined
          ? {}
          : {
              'content-type':
                method === 'PATCH' && url.startsWith('/api/')
                  ? 'application/merge-patch+json'
                  : 'application/json',
            }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  }
  const trpcQuery = (caller: Caller, path: string, input: unknown) =>
    send(caller, 'GET', `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`);
  const setAnonymous = async (isAnonyme: boolean, door: 'rest' | 'trpc' = 'rest') => {
    const res =
      door === 'rest'
        ? await send('creator', 'PATCH', `/api/signalements/${report}`, { isAnonyme })
        : await send('creator', 'POST', '/trpc/signalements.update', { code: report, patch: { isAnonyme } });
    expect(res.statusCode, res.body).toBe(200);
  };

  /** Every read of a report's people and history, by both doors. */
  const reads = () => ({
    'REST source': (c: Caller) => send(c, 'GET', `/api/signalements/${report}/source`),
    'tRPC sources.list': (c: Caller) => trpcQuery(c, 'sources.list', { signalement: report }),
    'REST historique': (c: Caller) => send(c, 'GET', `/api/signalements/${report}/historique`),
    'tRPC signalements.historique': (c: Caller) => trpcQuery(c, 'signalements.historique', { code: report }),
    'REST signalement': (c: Caller) => send(c, 'GET', `/api/signalements/${report}`),
    'tRPC signalements.get': (c: Caller) => trpcQuery(c, 'signalements.get', { code: report }),
    'tRPC signalements.impression': (c: Caller) =>
      trpcQuery(c, 'signalements.impression', { code: report, historique: true }),
    'REST export list': (c: Caller) => send(c, 'GET', `/api/signalements/export/list?search=${report}`),
  });
  const sourcesOf = (body: string, door: 'rest' | 'trpc') => {
    const json = JSON.parse(body) as { result?: { data: unknown } };
    return (door === 'rest' ? json : json.result!.data) as {
      sources: Array<{ nomPrenom: string }>;
      isAnonyme: boolean;
      sourcesProtegees: number;
    };
  };
  /** Sources' names are encrypted: only the exact name finds them (blind index, docs/decisions/0017). */
  const searchHits = async (caller: Caller, door: 'rest' | 'trpc', search: string = PEOPLE.source) => {
    if (door === 'rest')
      return (await send(caller, 'GET', `/api/signalements?search=${encodeURIComponent(search)}`)).json()
        .totalItems as number;
    return (await trpcQuery(caller, 'signalements.list', { search })).json().result.data.total as number;
  };

  it('shows the sources of a report that is not anonymous to every user (the baseline the other tests break)', async () => {
    for (const [door, read] of [
      ['rest', reads()['REST source']],
      ['trpc', reads()['tRPC sources.list']],
    ] as const) {
      const res = await read('other');
      expect(res.statusCode).toBe(200);
      expect(sourcesOf(res.body, door)).toMatchObject({
        isAnonyme: false,
        sourcesProtegees: 0,
        sources: [{ nomPrenom: PEOPLE.source }],
      });
    }
    expect((await reads()['REST historique']('other')).body).toContain(PEOPLE.sourceContact);
    expect(await searchHits('other', 'rest')).toBe(1);
  });

  it('from the moment the report turns anonymous, gives a non-creator the number of sources and no identity, by every door', async () => {
    await setAnonymous(true);
    for (const [name, read] of Object.entries(reads())) {
      const res = await read('other');
      expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
      for (const secret of SECRETS) expect(res.body, name).not.toContain(secret);
    }
    for (const [door, read] of [
      ['rest', reads()['REST source']],
      ['trpc', reads()['tRPC sources.list']],
    ] as const) {
      expect(sourcesOf((await read('other')).body, door)).toEqual({
        sources: [],
        isAnonyme: true,
        sourcesProtegees: 1,
      });
    }
  });

  it('masks the history entries about the sources for a non-creator, keeping what happened and when', async () => {
    const res = await reads()['REST historique']('other');
    const entries = res.json().member as Array<{
      action: string;
      masque?: boolean;
      changes: Record<string, { from: unknown; to: unknown }>;
    }>;
    const about = entries.filter((e) => e.action.startsWith('source.'));
    expect(about.map((e) => e.action)).toEqual(['source.modification', 'source.ajout']);
    for (const e of about) {
      expect(e.masque).toBe(true);
      expect(Object.values(e.changes).every((c) => c.from === null && c.to === null)).toBe(true);
    }
    expect(about[0]!.changes).toHaveProperty('description');
    // Other entries are untouched: the switch to anonymous itself reads as usual.
    const modification = entries.find((e) => e.action === 'modification')!;
    expect(modification.masque).toBeUndefined();
    expect(modification.changes.isAnonyme).toEqual({ from: false, to: true });
  });

  it('still gives the creator and an administrator the sources and their history, by both doors', async () => {
    for (const caller of ['creator', 'admin'] as const) {
      for (const [door, read] of [
        ['rest', reads()['REST source']],
        ['trpc', reads()['tRPC sources.list']],
      ] as const) {
        const list = sourcesOf((await read(caller)).body, door);
        expect(list).toMatchObject({
          isAnonyme: true,
          sourcesProtegees: 0,
          sources: [{ nomPrenom: PEOPLE.source }],
        });
      }
      for (const read of [reads()['REST historique'], reads()['tRPC signalements.historique']]) {
        const body = (await read(caller)).body;
        expect(body).toContain(PEOPLE.sourceContact);
        expect(body).not.toContain('"masque"');
      }
    }
  });

  it('never writes a source into the xlsx export, for anyone', async () => {
    for (const caller of ['other', 'creator'] as const) {
      const res = await send(caller, 'GET', `/api/signalements/export/xlsx?search=${report}`);
      expect(res.statusCode).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.getWorksheet('Signalements')!;
      const cells: string[] = [];
      sheet.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.value))));
      expect(cells).toContain(report);
      for (const secret of SECRETS) expect(cells.join('\n')).not.toContain(secret);
      const header = (sheet.getRow(1).values as unknown[]).indexOf('Sources');
      expect(sheet.getRow(2).getCell(header).value).toBe(1);
    }
  });

  it('takes the sources out of the search in the transaction of the switch, and puts them back when it is undone, by both doors', async () => {
    // Anonymous since the second test: only those who may know the source find the report by its name.
    expect(await searchHits('other', 'rest')).toBe(0);
    expect(await searchHits('other', 'trpc')).toBe(0);
    for (const caller of ['creator', 'admin'] as const) {
      expect(await searchHits(caller, 'rest')).toBe(1);
      expect(await searchHits(caller, 'trpc')).toBe(1);
      // A part of the name is no longer searched: the name is not in the search text.
      expect(await searchHits(caller, 'rest', 'Rasoanirina')).toBe(0);
    }
    await setAnonymous(false, 'trpc');
    expect(await searchHits('other', 'rest')).toBe(1);
    expect(await searchHits('other', 'trpc')).toBe(1);
    expect(sourcesOf((await reads()['tRPC sources.list']('other')).body, 'trpc').sources).toHaveLength(1);
    await setAnonymous(true, 'trpc');
    expect(await searchHits('other', 'trpc')).toBe(0);
    expect((await reads()['REST source']('other')).body).not.toContain(PEOPLE.source);
  });

  it('protects a source added or changed while the report is anonymous', async () => {
    const added = await send('creator', 'POST', '/api/sources', {
      signalement: `/api/signalements/${report}`,
      nomPrenom: 'Ravaonirina Nouvelle-Source',
      contact: '+261 34 99 999 99',
    });
    expect(added.statusCode, added.body).toBe(201);
    for (const read of Object.values(reads())) {
      const body = (await read('other')).body;
      expect(body).not.toContain('Nouvelle-Source');
      expect(body).not.toContain('99 999 99');
    }
    expect(sourcesOf((await reads()['REST source']('other')).body, 'rest').sourcesProtegees).toBe(2);
    expect((await reads()['REST source']('admin')).body).toContain('Nouvelle-Source');
  });
});
