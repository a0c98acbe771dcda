// Deleting evidence files (docs/decisions/0033-evidence-files.md) on both engines, on a clock the test moves: the
// uploader within 15 minutes, an administrator at any time, by both doors; the history keeps the name and the hash.
import { describe, expect, it } from 'vitest';
import { EVIDENCE_DELETE_MINUTES } from '#shared/constants';
import { testEngines } from '#tests/helpers/db';
import { evidenceSuite, pdf } from '#tests/helpers/evidence-fixture';
import { EVIDENCE_TEXTS } from './files';

describe.each(await testEngines())('evidence files: deletion on %s', (engine) => {
  const ev = evidenceSuite(engine);
  const { clock, uploaded, send, list, stored } = ev;

  it('lets the uploader delete within 15 minutes, an administrator at any time; keeps name and hash in the history', async () => {
    const mine = await uploaded('creator', pdf(100), 'à effacer.pdf');
    const byOther = await send('assignee', 'DELETE', `/api/pieces-jointes/${mine.code}`);
    expect([byOther.statusCode, byOther.json().message]).toEqual([403, EVIDENCE_TEXTS.notUploader]);
    expect((await send('other', 'DELETE', `/api/pieces-jointes/${mine.code}`)).statusCode).toBe(403);
    const deleted = await send('creator', 'DELETE', `/api/pieces-jointes/${mine.code}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await stored()).toEqual({ files: 0, chunks: 0 });

    const late = await uploaded('creator', pdf(100), 'gelé.pdf');
    clock.advance(EVIDENCE_DELETE_MINUTES + 1);
    expect((await list('creator')).member[0]!.supprimable).toBe(false);
    const refused = await send('creator', 'POST', '/trpc/piecesJointes.delete', { code: late.code });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(EVIDENCE_TEXTS.frozen);
    expect((await list('admin')).member[0]!.supprimable).toBe(true);
    const byAdmin = await send('admin', 'POST', '/trpc/piecesJointes.delete', { code: late.code });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect((await send('admin', 'DELETE', `/api/pieces-jointes/${late.code}`)).statusCode).toBe(404);

    const history = (
      await send('creator', 'GET', `/api/signalements/${ev.report}/historique`)
    ).json() as Array<{
      action: string;
      changes: Record<string, { from: unknown; to: unknown }>;
    }>;
    const entries = (
      Array.isArray(history) ? history : (history as { member: typeof history }).member
    ).filter(
      (e) =>
        e.action.startsWith('piece_jointe.') &&
        (e.changes.piece?.from === late.code || e.changes.piece?.to === late.code),
    );
    expect(entries.map((e) => e.action).sort()).toEqual(['piece_jointe.ajout', 'piece_jointe.suppression']);
    const removal = entries.find((e) => e.action === 'piece_jointe.suppression')!;
    expect(removal.changes).toEqual({
      piece: { from: late.code, to: null },
      nom: { from: 'gelé.pdf', to: null },
      sha256: { from: late.sha256, to: null },
    });
  });
});
