// A copy of the database alone (the SQLite file with its WAL, or a pg_dump) shows no source's name or
// phone number (docs/decisions/0017), nor the text of an internal note (0029), while the application still
// shows them to those who may know.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { rawCopy } from '#tests/helpers/raw-copy';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { NOTE_UNREADABLE } from './notes';
import { createReport } from '#tests/helpers/signalements';

const NAME = 'Ravelomanantsoa Zafindrabe-Unique';
const PHONE = '+261 32 77 123 45';
const OLD_PHONE = '+261 33 08 765 43';
const NOTE = 'Voisine directe du receveur Tsiafahy';
const GONE = 'Andrianjafitrimo Supprimee-Source';
const VICTIM = 'Rabemananjara Victime-Claire';
const INTERNAL = 'Appel du frere Randrianasolo-Interne, il connait la source';
const EDITED = 'Visite chez Rakotondrabe-Corrige a Ambohimanarina';
const SECRETS = [
  INTERNAL,
  EDITED,
  'randrianasolo',
  'rakotondrabe',
  NAME,
  PHONE,
  OLD_PHONE,
  NOTE,
  GONE,
  'ravelomanantsoa',
  'zafindrabe',
  'andrianjafitrimo',
  '77 123 45',
  '08 765 43',
];

describe.each(await testEngines())('sources and notes encrypted at rest on %s', (engine) => {
  let t: TestApp;
  let creator: string;
  let admin: string;
  let other: string;
  let report: string;
  let notes: string[];

  const send = (cookie: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: {
        cookie,
        ...SAME_ORIGIN,
        ...(body === undefined
          ? {}
          : { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const total = async (cookie: string, search: string) =>
    (await send(cookie, 'GET', `/api/signalements?search=${encodeURIComponent(search)}`)).json()
      .totalItems as number;

  beforeAll(async () => {
    t = await createTestApp(engine);
    await t.user('createur@example.mg', 'ROLE_USER', 'Rabe Createur');
    await t.user('autre@example.mg', 'ROLE_USER', 'Rakoto Autre');
    await t.user('admin@example.mg', 'ROLE_ADMIN', 'Rasoa Admin');
    creator = await t.login('createur@example.mg');
    other = await t.login('autre@example.mg');
    admin = await t.login('admin@example.mg');
    report = await createReport(t, creator);
    const signalement = `/api/signalements/${report}`;
    const created = await send(creator, 'POST', '/api/sources', {
      signalement,
      nomPrenom: NAME,
      contact: OLD_PHONE,
      canaux: ['/api/canals/TELEPHONE'],
    });
    expect(created.statusCode, created.body).toBe(201);
    // A change, so the history holds old → new values; a deleted source, so it holds a removed name.
    const edited = await send(creator, 'PATCH', created.json()['@id'], {
      nomPrenom: NAME,
      contact: PHONE,
      description: NOTE,
      canaux: ['/api/canals/TELEPHONE'],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const removed = await send(creator, 'POST', '/api/sources', {
      signalement,
      nomPrenom: GONE,
      contact: '034 11 222 33',
    });
    expect((await send(creator, 'DELETE', removed.json()['@id'])).statusCode).toBe(204);
    expect(
      (await send(creator, 'POST', '/api/victimes', { signalement, nomPrenom: VICTIM })).statusCode,
    ).toBe(201);
    // Two internal notes, one of them edited (the update is sealed too).
    notes = [];
    for (const texte of [INTERNAL, 'Premier jet']) {
      const note = await send(creator, 'POST', `${signalement}/notes`, { texte });
      expect(note.statusCode, note.body).toBe(201);
      notes.push(note.json().code as string);
    }
    expect((await send(creator, 'PATCH', `/api/notes/${notes[1]}`, { texte: EDITED })).statusCode).toBe(200);
  });
  afterAll(async () => t?.close());

  it('leaves no source name, phone number or note in a raw copy of the database', async () => {
    const raw = await rawCopy(t);
    // The copy does hold the report and what stays clear by design (victims): the check can fail.
    expect(raw).toContain(report);
    expect(raw).toContain(VICTIM);
    for (const secret of SECRETS) expect(raw.toLowerCase(), secret).not.toContain(secret.toLowerCase());
  });

  it('still gives the creator and an administrator the sources and their history in clear', async () => {
    for (const cookie of [creator, admin]) {
      const sources = (await send(cookie, 'GET', `/api/signalements/${report}/source`)).json();
      expect(sources.sources).toMatchObject([{ nomPrenom: NAME, contact: PHONE, description: NOTE }]);
      const history = (await send(cookie, 'GET', `/api/signalements/${report}/historique`)).body;
      for (const value of [OLD_PHONE, PHONE, NOTE, GONE]) expect(history).toContain(value);
    }
  });

  it('serves the notes in clear to their readers, each stored sealed to its own note', async () => {
    for (const cookie of [creator, other, admin]) {
      const answer = (await send(cookie, 'GET', `/api/signalements/${report}/notes`)).json();
      expect(answer.member.map((n: { texte: string }) => n.texte)).toEqual([INTERNAL, EDITED]);
    }
    const n = t.db.t.reportNotes;
    const stored = await t.db.read.select({ code: n.code, texte: n.texte }).from(n);
    for (const row of stored) {
      expect(row.texte).toMatch(/^v1:[A-Za-z0-9_-]+$/);
      expect(t.ctx.cipher!.decrypt(row.texte, 'report_notes.texte', row.code)).toMatch(
        /Randrianasolo|Rakotondrabe/,
      );
    }
  });

  it('finds the report by the exact name of its source, never by a fragment', async () => {
    expect(await total(creator, NAME)).toBe(1);
    expect(await total(other, 'ravelomanantsoa  ZAFINDRABE-unique')).toBe(1);
    expect(await total(admin, 'Ravelomanantsoa')).toBe(0);
    expect(await total(admin, 'Zafindrabe-Unique')).toBe(0);
    expect(await total(admin, GONE)).toBe(0);
  });

  // Last: it damages the stored notes.
  it('refuses a note text swapped from another note or altered, with a French 422 that names no value', async () => {
    const n = t.db.t.reportNotes;
    const texts = new Map(
      (await t.db.read.select({ code: n.code, texte: n.texte }).from(n)).map((r) => [r.code, r.texte]),
    );
    const [a, b] = notes as [string, string];
    const swap = async (code: string, texte: string) =>
      t.db.transaction((tx) => tx.update(n).set({ texte }).where(eq(n.code, code)));
    const expectRefused = async () => {
      const rest = await send(creator, 'GET', `/api/signalements/${report}/notes`);
      expect(rest.statusCode).toBe(422);
      expect(rest.json()).toEqual({ status: 422, message: NOTE_UNREADABLE });
      const trpc = await t.app.inject({
        method: 'GET',
        url: `/trpc/notes.list?input=${encodeURIComponent(JSON.stringify({ signalement: report }))}`,
        headers: { cookie: creator, ...SAME_ORIGIN },
      });
      expect(trpc.statusCode).toBe(422);
      expect(trpc.json().error.message).toBe(NOTE_UNREADABLE);
      for (const body of [rest.body, trpc.body]) {
        for (const value of texts.values()) expect(body).not.toContain(value.slice(3, 20));
        expect(body).not.toMatch(/Randrianasolo|Rakotondrabe|DecryptError|stack/i);
      }
    };
    // Each note's own ciphertext, valid under the key, put on the other note.
    await swap(a, texts.get(b)!);
    await swap(b, texts.get(a)!);
    await expectRefused();
    // Put back, it opens again: the refusal was the swap.
    await swap(a, texts.get(a)!);
    await swap(b, texts.get(b)!);
    expect((await send(creator, 'GET', `/api/signalements/${report}/notes`)).statusCode).toBe(200);
    // One character of the ciphertext changed.
    const body = texts.get(a)!;
    await swap(a, `${body.slice(0, 20)}${body[20] === 'A' ? 'B' : 'A'}${body.slice(21)}`);
    await expectRefused();
  });
});
