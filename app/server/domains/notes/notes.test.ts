// Internal notes (docs/decisions/0029-internal-notes.md) by both doors on both engines: who reads and writes
// them, the author's 15-minute window on a fixed clock, the sources' need to know on anonymous reports, the
// history and the access log (never the text), the export's « Inclure les notes internes », and the public
// summary that never shows them.
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOTE_EDIT_MINUTES, NOTE_MAX_LENGTH } from '#shared/constants';
import type { NoteDto } from '#shared/dto/notes';
import { NOTE_MESSAGES } from '#shared/schemas/notes';
import type { Clock } from '#server/context';
import { testEngines } from '#tests/helpers/db';
import { accessLogRows } from '#tests/helpers/journal';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport, mergePatch } from '#tests/helpers/signalements';
import { serverSuite } from '#tests/helpers/suite';
import { NOTE_TEXTS } from './service';

/** The services' clock, moved by the tests (sessions keep the real time). */
class FixedClock implements Clock {
  at = new Date();
  now() {
    return new Date(this.at);
  }
  advance(minutes: number) {
    this.at = new Date(this.at.getTime() + minutes * 60_000);
  }
}

describe.each(await testEngines())('internal notes on %s', (engine) => {
  const clock = new FixedClock();
  const suite = serverSuite(engine, {
    user: { email: 'createur@example.mg', nomPrenom: 'Rabe Createur' },
    options: { clock },
  });
  const t = suite.app;
  const cookie = { creator: '', other: '', admin: '' };
  type Caller = keyof typeof cookie;
  let report: string;

  beforeAll(async () => {
    await t.user('autre@example.mg', 'ROLE_USER', 'Rakoto Autre');
    cookie.creator = suite.user.cookie;
    cookie.admin = suite.admin.cookie;
    cookie.other = await t.login('autre@example.mg');
    report = await createReport(t, cookie.creator);
  });

  function send(caller: Caller, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) {
    const trpc = url.startsWith('/trpc/');
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
                method === 'PATCH' && !trpc ? 'application/merge-patch+json' : 'application/json',
            }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  }
  const trpcQuery = (caller: Caller, path: string, input: unknown) =>
    send(caller, 'GET', `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`);
  const listRest = async (caller: Caller, code = report) => {
    const res = await send(caller, 'GET', `/api/signalements/${code}/notes`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { member: NoteDto[]; totalItems: number; peutAjouter: boolean; masquees: number };
  };
  const add = async (caller: Caller, texte: string, code = report) => {
    const res = await send(caller, 'POST', `/api/signalements/${code}/notes`, { texte });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as NoteDto;
  };

  it('adds a note by REST and reads it back by both doors, plain text with its line breaks, oldest first', async () => {
    const texte = 'Appel du témoin :\n- rendez-vous lundi\n\n<b>pas du HTML</b> **ni du Markdown**';
    const created = await send('creator', 'POST', `/api/signalements/${report}/notes`, {
      texte: `  ${texte}\n`,
    });
    expect(created.statusCode, created.body).toBe(201);
    const note = created.json() as NoteDto;
    expect(created.headers.location).toBe(`/api/notes/${note.code}`);
    expect(note).toMatchObject({
      '@type': 'NoteInterne',
      texte,
      signalement: `/api/signalements/${report}`,
      auteur: { code: suite.user.code, nomPrenom: 'Rabe Createur' },
      createdAt: clock.at.toISOString(),
      updatedAt: null,
      modifiable: true,
    });
    expect(note.modifiableJusquA).toBe(
      new Date(clock.at.getTime() + NOTE_EDIT_MINUTES * 60_000).toISOString(),
    );
    clock.advance(1);
    const second = await send('creator', 'POST', '/trpc/notes.create', {
      signalement: report,
      texte: 'Deuxième',
    });
    expect(second.statusCode, second.body).toBe(200);

    const rest = await listRest('creator');
    expect(rest.member.map((n) => n.texte)).toEqual([texte, 'Deuxième']);
    expect(rest).toMatchObject({ '@type': 'Collection', totalItems: 2, peutAjouter: true, masquees: 0 });
    const trpc = await trpcQuery('creator', 'notes.list', { signalement: report });
    expect(trpc.json().result.data.notes.map((n: NoteDto) => n.code)).toEqual(rest.member.map((n) => n.code));
  });

  it('lets everyone who reads the report read its notes; only who may edit it adds one', async () => {
    const other = await listRest('other');
    expect(other.totalItems).toBeGreaterThan(0);
    expect(other.peutAjouter).toBe(false);
    expect(other.member.every((n) => !n.modifiable)).toBe(true);
    const refused = await send('other', 'POST', `/api/signalements/${report}/notes`, { texte: 'Intrus' });
    expect(refused.statusCode).toBe(403);
    const viaTrpc = await send('other', 'POST', '/trpc/notes.create', {
      signalement: report,
      texte: 'Intrus',
    });
    expect(viaTrpc.json().error.data.code).toBe('FORBIDDEN');
    // An administrator may edit every report, so may add to its thread.
    const admin = await add('admin', 'Vu par l’administration');
    expect(admin.modifiable).toBe(true);
    expect((await listRest('admin')).peutAjouter).toBe(true);
    expect((await send('creator', 'GET', '/api/signalements/SIG-ZZZZ-ZZZZ/notes')).statusCode).toBe(404);
  });

  it('lets only the author edit or delete: not another user, not an administrator', async () => {
    const note = await add('creator', 'À moi');
    for (const caller of ['other', 'admin'] as const) {
      const patch = await send(caller, 'PATCH', `/api/notes/${note.code}`, { texte: 'Réécrit' });
      expect(patch.statusCode, `${caller} ${patch.body}`).toBe(403);
      const del = await send(caller, 'DELETE', `/api/notes/${note.code}`);
      expect(del.statusCode).toBe(403);
    }
    const admin = await send('admin', 'PATCH', `/api/notes/${note.code}`, { texte: 'Réécrit' });
    expect(admin.json().message).toBe(NOTE_TEXTS.notAuthor);
    const viaTrpc = await send('admin', 'POST', '/trpc/notes.delete', { code: note.code });
    expect(viaTrpc.json().error.data.code).toBe('FORBIDDEN');
    expect((await listRest('creator')).member.find((n) => n.code === note.code)?.texte).toBe('À moi');
    expect((await send('creator', 'PATCH', '/api/notes/NOT-ZZZZ-ZZZZ', { texte: 'x' })).statusCode).toBe(404);
  });

  it(`freezes a note ${NOTE_EDIT_MINUTES} minutes after it was written, by the server's clock (409 in French)`, async () => {
    const note = await add('creator', 'Première version');
    clock.advance(NOTE_EDIT_MINUTES - 1);
    const edited = await send('creator', 'PATCH', `/api/notes/${note.code}`, { texte: 'Deuxième version' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ texte: 'Deuxième version', updatedAt: clock.at.toISOString() });
    clock.advance(2);
    const late = await send('creator', 'PATCH', `/api/notes/${note.code}`, { texte: 'Trop tard' });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(NOTE_TEXTS.frozen);
    expect((await send('creator', 'DELETE', `/api/notes/${note.code}`)).statusCode).toBe(409);
    const viaTrpc = await send('creator', 'POST', '/trpc/notes.update', {
      code: note.code,
      texte: 'Trop tard',
    });
    expect(viaTrpc.json().error).toMatchObject({ message: NOTE_TEXTS.frozen, data: { code: 'CONFLICT' } });
    const listed = (await listRest('creator')).member.find((n) => n.code === note.code)!;
    expect(listed).toMatchObject({ texte: 'Deuxième version', modifiable: false });
  });

  it('deletes a note of its author within the window, by both doors', async () => {
    const rest = await add('creator', 'À effacer');
    expect((await send('creator', 'DELETE', `/api/notes/${rest.code}`)).statusCode).toBe(204);
    const trpc = await add('creator', 'À effacer aussi');
    const res = await send('creator', 'POST', '/trpc/notes.delete', { code: trpc.code });
    expect(res.statusCode, res.body).toBe(200);
    const codes = (await listRest('creator')).member.map((n) => n.code);
    expect(codes).not.toContain(rest.code);
    expect(codes).not.toContain(trpc.code);
    expect((await send('creator', 'DELETE', `/api/notes/${rest.code}`)).statusCode).toBe(404);
  });

  it('refuses an empty note and one over the limit, in French', async () => {
    const empty = await send('creator', 'POST', `/api/signalements/${report}/notes`, { texte: ' \n ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain(NOTE_MESSAGES.required);
    const long = await send('creator', 'POST', `/api/signalements/${report}/notes`, {
      texte: 'x'.repeat(NOTE_MAX_LENGTH + 1),
    });
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain(NOTE_MESSAGES.tooLong);
    expect((await add('creator', 'x'.repeat(NOTE_MAX_LENGTH))).texte).toHaveLength(NOTE_MAX_LENGTH);
  });

  it('writes each create, edit and delete in the history, with the note code and length, never the text', async () => {
    const code = await createReport(t, cookie.creator);
    const secret = 'Texte-de-note-jamais-dans-historique';
    const note = await add('creator', secret, code);
    await send('creator', 'PATCH', `/api/notes/${note.code}`, { texte: `${secret} bis` });
    await send('creator', 'DELETE', `/api/notes/${note.code}`);
    const res = await send('other', 'GET', `/api/signalements/${code}/historique`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(secret);
    const entries = res.json().member as Array<{ action: string; changes: Record<string, unknown> }>;
    expect(entries.slice(0, 3).map((e) => e.action)).toEqual([
      'note.suppression',
      'note.modification',
      'note.ajout',
    ]);
    expect(entries[2]!.changes).toEqual({
      note: { from: null, to: note.code },
      longueur: { from: null, to: secret.length },
    });
  });

  it('writes each create, edit and delete in the access log: who, which report, which note, never the text', async () => {
    const code = await createReport(t, cookie.creator);
    const secret = 'Texte-de-note-jamais-dans-le-journal';
    const before = (await accessLogRows(t, 'ecriture_notes')).length;
    const note = await add('creator', secret, code);
    const edited = await send('creator', 'POST', '/trpc/notes.update', {
      code: note.code,
      texte: `${secret} bis`,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const deleted = await send('creator', 'DELETE', `/api/notes/${note.code}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    const rows = (await accessLogRows(t, 'ecriture_notes')).slice(before);
    expect(rows.map((r) => r.details)).toEqual([
      { action: 'ajout', note: note.code },
      { action: 'modification', note: note.code },
      { action: 'suppression', note: note.code },
    ]);
    for (const row of rows)
      expect(row).toMatchObject({
        signalementCode: code,
        userId: expect.any(Number),
        userEmail: 'createur@example.mg',
      });
    expect(JSON.stringify(rows)).not.toContain('Texte-de-note');
    // The journal screen's filter by kind, with the French sentence of each entry, newest first.
    const journal = await trpcQuery('admin', 'journal.list', {
      page: 1,
      filters: { kind: 'ecriture_notes', signalement: code },
    });
    expect(journal.statusCode, journal.body).toBe(200);
    expect(journal.body).not.toContain('Texte-de-note');
    const items = journal.json().result.data.items as Array<{ description: string }>;
    expect(items.map((i) => i.description)).toEqual([
      `Suppression de la note interne ${note.code}`,
      `Modification de la note interne ${note.code}`,
      `Ajout de la note interne ${note.code}`,
    ]);
  });

  it('writes no access-log entry for a refused change of a note', async () => {
    const note = await add('creator', 'Note d’un autre');
    const before = (await accessLogRows(t, 'ecriture_notes')).length;
    expect((await send('other', 'PATCH', `/api/notes/${note.code}`, { texte: 'Intrus' })).statusCode).toBe(
      403,
    );
    expect((await send('admin', 'DELETE', `/api/notes/${note.code}`)).statusCode).toBe(403);
    expect(await accessLogRows(t, 'ecriture_notes')).toHaveLength(before);
  });

  it('writes every read of notes in the access log, by both doors', async () => {
    const before = (await accessLogRows(t, 'lecture_notes')).length;
    const count = (await listRest('other')).totalItems;
    await trpcQuery('other', 'notes.list', { signalement: report });
    const rows = (await accessLogRows(t, 'lecture_notes')).slice(before);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      signalementCode: report,
      userEmail: 'autre@example.mg',
      details: { nombre: count },
    });
  });

  describe('on an anonymous report (the sources need-to-know rule)', () => {
    let anonymous: string;
    const SECRET = 'Le témoin habite derrière le marché';
    beforeAll(async () => {
      anonymous = await createReport(t, cookie.creator);
      await add('creator', SECRET, anonymous);
      const res = await mergePatch(t, cookie.creator, `/api/signalements/${anonymous}`, { isAnonyme: true });
      expect(res.statusCode, res.body).toBe(200);
    });

    it('withholds the notes from who may not know its sources, and says how many, by both doors', async () => {
      const before = (await accessLogRows(t, 'lecture_notes')).length;
      const rest = await send('other', 'GET', `/api/signalements/${anonymous}/notes`);
      expect(rest.body).not.toContain(SECRET);
      expect(rest.json()).toMatchObject({ member: [], totalItems: 0, masquees: 1, peutAjouter: false });
      const trpc = await trpcQuery('other', 'notes.list', { signalement: anonymous });
      expect(trpc.body).not.toContain(SECRET);
      expect(trpc.json().result.data).toEqual({ notes: [], peutAjouter: false, masquees: 1 });
      const rows = (await accessLogRows(t, 'lecture_notes')).slice(before);
      expect(rows.map((r) => r.details)).toEqual([
        { protegees: true, masquees: 1 },
        { protegees: true, masquees: 1 },
      ]);
    });

    it('shows them to its creator and to administrators', async () => {
      for (const caller of ['creator', 'admin'] as const) {
        const list = await listRest(caller, anonymous);
        expect(list.member.map((n) => n.texte)).toEqual([SECRET]);
      }
    });
  });

  describe('xlsx export', () => {
    let code: string;
    const TEXT = 'Note pour export\nsur deux lignes';
    beforeAll(async () => {
      code = await createReport(t, cookie.creator);
      await add('creator', TEXT, code);
    });
    const download = async (caller: Caller, query: string) => {
      const res = await send(caller, 'GET', `/api/signalements/export/xlsx?search=${code}${query}`);
      expect(res.statusCode, res.body).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.getWorksheet('Signalements')!;
      const headers = (sheet.getRow(1).values as unknown[]).slice(1);
      const cells = (sheet.getRow(2).values as unknown[]).slice(1);
      return { headers, cells, row: Object.fromEntries(headers.map((h, i) => [String(h), cells[i]])) };
    };

    it('leaves the notes out by default', async () => {
      for (const query of ['', '&notesInternes=false']) {
        const { headers, cells } = await download('creator', query);
        expect(headers).not.toContain('Notes internes');
        expect(JSON.stringify(cells)).not.toContain('Note pour export');
      }
    });

    it('adds them in a last column « Notes internes » when asked, and logs that the export holds them', async () => {
      const before = (await accessLogRows(t, 'export')).length;
      const { headers, row } = await download('other', '&notesInternes=true');
      expect(headers.at(-1)).toBe('Notes internes');
      expect(row['Notes internes']).toMatch(
        /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} - Rabe Createur : Note pour export\nsur deux lignes$/,
      );
      const [entry] = (await accessLogRows(t, 'export')).slice(before);
      expect(entry!.details).toMatchObject({ format: 'xlsx', notesInternes: true, lignes: 1 });
    });

    it('keeps an anonymous report notes out of the export of who may not know its sources', async () => {
      const res = await mergePatch(t, cookie.creator, `/api/signalements/${code}`, { isAnonyme: true });
      expect(res.statusCode).toBe(200);
      expect((await download('other', '&notesInternes=true')).row['Notes internes']).toBeUndefined();
      expect((await download('creator', '&notesInternes=true')).row['Notes internes']).toContain(TEXT);
      await mergePatch(t, cookie.creator, `/api/signalements/${code}`, { isAnonyme: false });
    });
  });

  it('never shows a note on the public summary, by either door', async () => {
    const secret = 'Note-interne-jamais-publique';
    await add('creator', secret);
    const rest = await t.app.inject({ url: `/api/resume/signalements-details/${report}` });
    expect(rest.statusCode).toBe(200);
    expect(rest.body).not.toContain(secret);
    const trpc = await t.app.inject({
      url: `/trpc/signalements.resume?input=${encodeURIComponent(JSON.stringify({ code: report }))}`,
    });
    expect(trpc.statusCode).toBe(200);
    expect(trpc.body).not.toContain(secret);
    // The same request with a session does show the note in the thread: the summary's absence is a rule.
    expect(JSON.stringify(await listRest('other'))).toContain(secret);
  });
});
