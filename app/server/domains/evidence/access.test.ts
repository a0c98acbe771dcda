// Who reads and attaches evidence files (docs/decisions/0033-evidence-files.md) on both engines: every list and
// download in the access log and the reading alerts, who may attach (the report's editors) and read, and an
// anonymous report's files hidden from who may not know its sources.
import { describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { evidenceSuite, pdf } from '#tests/helpers/evidence-fixture';
import { accessLogRows } from '#tests/helpers/journal';
import { createReport, mergePatch } from '#tests/helpers/signalements';

describe.each(await testEngines())('evidence files: rights and access log on %s', (engine) => {
  const ev = evidenceSuite(engine);
  const { t, cookie, upload, uploaded, send, list, clearFiles } = ev;

  it('logs every list and download in the access log, and downloads count toward the reading alerts', async () => {
    const dto = await uploaded('creator', pdf(3000));
    const before = (await accessLogRows(t, 'lecture_pieces_jointes')).length;
    await list('other');
    expect((await send('other', 'GET', dto.contenu)).statusCode).toBe(200);
    const rows = (await accessLogRows(t, 'lecture_pieces_jointes')).slice(before);
    expect(rows.map((r) => [r.signalementCode, r.details])).toEqual([
      [ev.report, { nombre: 1 }],
      [ev.report, { telechargement: dto.code, taille: 3000 }],
    ]);
    await clearFiles();
  });

  it('raises a reading alert when one user downloads the files of many reports', async () => {
    const reports: string[] = [];
    for (let i = 0; i < t.config.ACCESS_ALERT_READS; i++) {
      const code = await createReport(t, cookie.creator);
      reports.push((await uploaded('creator', pdf(500), 'p.pdf', code)).contenu);
    }
    for (const url of reports) expect((await send('other', 'GET', url)).statusCode).toBe(200);
    const a = t.db.t.accessAlerts;
    const alerts = await t.db.read.select().from(a);
    expect(alerts.map((x) => x.kind)).toContain('lecture_massive');
    await clearFiles();
  });

  it('lets who may edit the report attach (creator, assignee, administrator), nobody else; reads for every reader', async () => {
    for (const caller of ['creator', 'assignee', 'admin'] as const) await uploaded(caller, pdf(100));
    const refused = await upload('other', pdf(100));
    expect(refused.statusCode).toBe(403);
    const other = await list('other');
    expect(other.totalItems).toBe(3);
    expect(other.peutAjouter).toBe(false);
    expect(other.member.every((f) => !f.supprimable)).toBe(true);
    expect((await upload('creator', pdf(100), 'a.pdf', 'SIG-XXXX-XXXX')).statusCode).toBe(404);
    const anonymous = await send('creator', 'GET', `/api/signalements/${ev.report}/pieces-jointes`).then(() =>
      t.app.inject({ method: 'GET', url: `/api/signalements/${ev.report}/pieces-jointes` }),
    );
    expect(anonymous.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: other.member[0]!.contenu })).statusCode).toBe(401);
    await clearFiles();
  });

  it('hides an anonymous report\u2019s files, their downloads and their history from who may not know its sources', async () => {
    const code = await createReport(t, cookie.creator);
    const dto = await uploaded('creator', pdf(100), 'Rasoa témoin.pdf', code);
    expect(
      (await mergePatch(t, cookie.creator, `/api/signalements/${code}`, { isAnonyme: true })).statusCode,
    ).toBe(200);
    const other = await list('other', code);
    expect(other).toMatchObject({ totalItems: 0, masquees: 1, peutAjouter: false });
    expect((await send('other', 'GET', dto.contenu)).statusCode).toBe(403);
    const history = await send('other', 'GET', `/api/signalements/${code}/historique`);
    expect(history.body).not.toContain('Rasoa');
    expect(history.body).not.toContain(dto.sha256);
    const mine = await send('creator', 'GET', `/api/signalements/${code}/historique`);
    expect(mine.body).toContain('Rasoa témoin.pdf');
    await clearFiles();
  });
});
