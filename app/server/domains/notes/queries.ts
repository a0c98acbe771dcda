// The notes' one selection (note, author) and the read the xlsx export makes of them. Kept apart from the
// service so the export's thread loads no write path (export-thread.ts).
import { asc, eq, inArray } from 'drizzle-orm';
import type { DataCipher } from '#server/crypto/cipher';
import { openNote } from '#server/crypto/notes';
import type { Orm, ReadOnlyDatabase } from '#server/db/client';

/** A note (its text as stored: encrypted) with its author's code and name: what the thread, the changes and the export read. */
export function selectNotes(db: ReadOnlyDatabase, orm: Orm) {
  const { reportNotes: n, utilisateurs: u } = db.t;
  return orm
    .select({
      id: n.id,
      code: n.code,
      texte: n.texte,
      authorId: n.authorId,
      createdAt: n.createdAt,
      updatedAt: n.updatedAt,
      auteur: { code: u.code, nomPrenom: u.nomPrenom },
      signalementId: n.signalementId,
    })
    .from(n)
    .innerJoin(u, eq(u.id, n.authorId));
}

/**
 * The notes of an export's reports, one text per report: « dd/MM/yyyy HH:mm - Author : text », oldest
 * first, blank line between notes. The caller passes only the reports whose notes the exporter may read
 * (need to know, as on the screen); their texts are opened with `cipher`, the server's data key.
 */
export async function notesForExport(
  db: ReadOnlyDatabase,
  cipher: DataCipher,
  reportIds: number[],
  format: (note: { at: Date; auteur: string; texte: string }) => string,
): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  if (reportIds.length === 0) return out;
  const n = db.t.reportNotes;
  const rows = await selectNotes(db, db.read)
    .where(inArray(n.signalementId, reportIds))
    .orderBy(asc(n.signalementId), asc(n.createdAt), asc(n.id));
  for (const r of rows) {
    const line = format({
      at: r.createdAt,
      auteur: r.auteur.nomPrenom,
      texte: openNote(cipher, r.code, r.texte),
    });
    const before = out.get(r.signalementId);
    out.set(r.signalementId, before === undefined ? line : `${before}\n\n${line}`);
  }
  return out;
}
