// The print view's procedure (docs/decisions/0043-print-view.md) on both engines: the whole report in one
// answer, its people as the reader may see them (an anonymous report's sources, notes and history entries
// withheld from who may not know them), the history and the internal notes only when asked, and one
// « Impression » entry in the access log per print that says whether the notes were printed.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ImpressionDto } from '#shared/dto/print';
import { testEngines } from '#tests/helpers/db';
import { accessLogRows } from '#tests/helpers/journal';
import { addPeople, PEOPLE, SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport, mergePatch } from '#tests/helpers/signalements';
import { serverSuite } from '#tests/helpers/suite';
import { describeEntry } from '../journal/describe';

const NOTE = 'Note réservée : le témoin habite près du bureau';

describe.each(await testEngines())('print view of a report on %s', (engine) => {
  const suite = serverSuite(engine, { user: { email: 'createur@example.mg', nomPrenom: 'Rabe Createur' } });
  const t = suite.app;
  const cookie = { creator: '', other: '', admin: '' };
  let report: string;

  beforeAll(async () => {
    await t.user('autre@example.mg', 'ROLE_USER', 'Rakoto Autre');
    cookie.creator = suite.user.cookie;
    cookie.admin = suite.admin.cookie;
    cookie.other = await t.login('autre@example.mg');
    report = await createReport(t, cookie.creator);
    await addPeople(t, cookie.creator, report);
    const patched = await mergePatch(t, cookie.creator, `/api/signalements/${report}`, {
      isAnonyme: true,
      description: 'Faits imprimés',
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const note = await t.app.inject({
      method: 'POST',
      url: `/api/signalements/${report}/notes`,
      headers: { cookie: cookie.creator, ...SAME_ORIGIN },
      payload: { texte: NOTE },
    });
    expect(note.statusCode, note.body).toBe(201);
  });

  const print = (caller: keyof typeof cookie, input: object) =>
    t.app.inject({
      url: `/trpc/signalements.impression?input=${encodeURIComponent(JSON.stringify(input))}`,
      headers: { cookie: cookie[caller], ...SAME_ORIGIN },
    });
  const printed = async (caller: keyof typeof cookie, input: object) => {
    const res = await print(caller, input);
    expect(res.statusCode, res.body).toBe(200);
    return { body: res.body, data: res.json().result.data as ImpressionDto };
  };
  const printsOf = async () =>
    (await accessLogRows(t, 'impression')).filter((r) => r.signalementCode === report);
  const peopleReads = async () => (await accessLogRows(t)).filter((r) => r.kind !== 'impression').length;

  it('gives the creator the whole report, its people, notes and history when asked, and logs one print with counts', async () => {
    const before = (await printsOf()).length;
    const otherEntries = await peopleReads();
    const { data } = await printed('creator', { code: report, historique: true, notes: true });
    expect(data.signalement).toMatchObject({ code: report, description: 'Faits imprimés', isAnonyme: true });
    expect(data.auteurs.map((a) => a.nomPrenom)).toEqual([PEOPLE.auteur]);
    expect(data.victimes.map((v) => v.nomPrenom)).toEqual([PEOPLE.victime]);
    expect(data.sources).toMatchObject({ sourcesProtegees: 0, sources: [{ nomPrenom: PEOPLE.source }] });
    expect(data.notes?.notes.map((n) => n.texte)).toEqual([NOTE]);
    expect(data.historique?.map((e) => e.action)).toContain('source.ajout');
    expect(data.imprimePar.nomPrenom).toBe('Rabe Createur');
    expect(Number.isNaN(Date.parse(data.imprimeLe))).toBe(false);

    const rows = (await printsOf()).slice(before);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.userEmail).toBe('createur@example.mg');
    expect(rows[0]!.details).toEqual({
      auteurs: { nombre: 1 },
      sources: { nombre: 1 },
      victimes: { nombre: 1 },
      notes: { nombre: 1 },
      piecesJointes: { nombre: 0 },
      historique: { entrees: data.historique!.length, masquees: 0 },
    });
    // One entry for the print, not one per card as the detail's reads write.
    expect(await peopleReads()).toBe(otherEntries);
    expect(describeEntry('impression', rows[0]!.details)).toBe(
      `Impression du signalement : Auteur présumé (1), Source (1), Victime (1), Note interne (1), Pièce jointe (0), historique : ${data.historique!.length} entrées`,
    );
  });

  it('withholds the sources, notes and their history of an anonymous report from who may not know them, and logs what was withheld', async () => {
    const before = (await printsOf()).length;
    const { body, data } = await printed('other', { code: report, historique: true, notes: true });
    for (const secret of [PEOPLE.source, PEOPLE.sourceContact, NOTE]) expect(body).not.toContain(secret);
    expect(data.sources).toEqual({ sources: [], isAnonyme: true, sourcesProtegees: 1 });
    expect(data.notes).toMatchObject({ notes: [], masquees: 1 });
    expect(data.signalement.canEdit).toBe(false);
    // Authors and victims are every reader's, as on the detail.
    expect(data.auteurs).toHaveLength(1);
    expect(data.victimes).toHaveLength(1);
    const masked = data.historique!.filter((e) => e.masque);
    expect(masked.map((e) => e.action)).toEqual(['source.ajout']);

    const [row] = (await printsOf()).slice(before);
    expect(row!.userEmail).toBe('autre@example.mg');
    expect(row!.details).toMatchObject({
      sources: { protegees: true, masquees: 1 },
      notes: { protegees: true, masquees: 1 },
      historique: { masquees: 1 },
    });
    expect(describeEntry('impression', row!.details)).toContain('Sources protégées : 1 masquée');
  });

  it('prints without the history and the notes unless asked, says so in the log, and the administrator sees the sources', async () => {
    const before = (await printsOf()).length;
    const { body, data } = await printed('admin', { code: report });
    expect(data.historique).toBeNull();
    expect(data.notes).toBeNull();
    expect(body).not.toContain(NOTE);
    expect(data.sources.sources).toHaveLength(1);
    const [row] = (await printsOf()).slice(before);
    expect(row!.details).not.toHaveProperty('historique');
    expect(row!.details).not.toHaveProperty('notes');
    expect(describeEntry('impression', row!.details)).toBe(
      'Impression du signalement : Auteur présumé (1), Source (1), Victime (1), sans les notes internes, Pièce jointe (0)',
    );
  });

  it('prints the notes alone when asked without the history', async () => {
    const before = (await printsOf()).length;
    const { data } = await printed('admin', { code: report, notes: true });
    expect(data.historique).toBeNull();
    expect(data.notes?.notes.map((n) => n.texte)).toEqual([NOTE]);
    const [row] = (await printsOf()).slice(before);
    expect(row!.details).toMatchObject({ notes: { nombre: 1 } });
    expect(describeEntry('impression', row!.details)).toContain('Note interne (1)');
  });

  it('answers a French 404 for an unknown report, and logs nothing', async () => {
    const before = (await accessLogRows(t, 'impression')).length;
    const res = await print('creator', { code: 'SIG-0000-0000' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('Signalement non trouvé.');
    expect(await accessLogRows(t, 'impression')).toHaveLength(before);
  });
});
