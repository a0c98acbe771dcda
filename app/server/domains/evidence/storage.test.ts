// Evidence files at rest (docs/decisions/0033-evidence-files.md) on both engines: no byte stored in clear, a
// key rotation keeps them downloadable, and a block moved out of its place fails the download rather than answer
// other bytes.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { EVIDENCE_CHUNK_BYTES } from '#shared/constants';
import { createCipher, generateDataKey } from '#server/crypto/cipher';
import { reencryptAll } from '#server/crypto/rotate';
import { testEngines } from '#tests/helpers/db';
import { evidenceSuite, MARKER, pdf } from '#tests/helpers/evidence-fixture';

describe.each(await testEngines())('evidence files at rest on %s', (engine) => {
  const ev = evidenceSuite(engine);
  const { t, uploaded, send, clearFiles } = ev;

  it('stores no byte of the file in clear, and a key rotation keeps it downloadable', async () => {
    const content = pdf(EVIDENCE_CHUNK_BYTES + 5000);
    const dto = await uploaded('creator', content);
    const { evidenceChunks: c, evidenceFiles: f } = t.db.t;
    const blocks = await t.db.read.select({ data: c.data }).from(c);
    expect(blocks.length).toBe(2);
    for (const b of blocks) expect(Buffer.from(b.data).includes(MARKER)).toBe(false);
    const [row] = await t.db.read.select().from(f).where(eq(f.code, dto.code));
    expect(JSON.stringify(row)).not.toContain(MARKER.toString());
    const before = row!.cle;

    const to = createCipher(generateDataKey());
    const counts = await reencryptAll(t.db, t.ctx.cipher!, to);
    expect(counts.evidence).toBe(1);
    t.ctx.cipher = to;
    const [after] = await t.db.read.select({ cle: f.cle }).from(f).where(eq(f.code, dto.code));
    expect(after!.cle).not.toBe(before);
    const down = await send('creator', 'GET', dto.contenu);
    expect(down.statusCode, down.body).toBe(200);
    expect(down.rawPayload.equals(content)).toBe(true);
    await clearFiles();
  });

  it('refuses a block moved out of its place: the download fails rather than answer other bytes', async () => {
    const dto = await uploaded('creator', pdf(EVIDENCE_CHUNK_BYTES * 2 + 10));
    const { evidenceChunks: c, evidenceFiles: f } = t.db.t;
    const [row] = await t.db.read.select({ id: f.id }).from(f).where(eq(f.code, dto.code));
    const blocks = await t.db.read.select().from(c).where(eq(c.evidenceId, row!.id));
    await t.db.transaction(async (tx) => {
      await tx.update(c).set({ idx: 99 }).where(eq(c.idx, 0));
      await tx.update(c).set({ idx: 0 }).where(eq(c.idx, 1));
      await tx.update(c).set({ idx: 1 }).where(eq(c.idx, 99));
    });
    expect(blocks.length).toBe(3);
    // The first block no longer opens: a 500 before any byte, never the wrong bytes.
    const res = await send('creator', 'GET', dto.contenu);
    expect(res.statusCode).toBe(500);
    expect(res.rawPayload.includes(MARKER)).toBe(false);
    await clearFiles();
  });
});
