// A database written by a version before encryption at rest: sources, their history, TOTP keys, internal
// notes and webhook signing secrets in clear, source names in the search text and (SQLite) in the token list.
// The next start encrypts it all.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, testEngines, type TestDatabase } from '#tests/helpers/db';
import { recordSearchTerms } from '../db/search';
import { seed } from '../db/seed/index';
import { buildSearchText } from '../domains/signalements/search-text';
import { createUser } from '../domains/utilisateurs/service';
import { start, type Running } from '../start';
import { formatDataKey, generateDataKey, isEncrypted } from './cipher';
import { encryptPlaintext } from './migrate-plaintext';
import { openSource, openSourceChanges } from './sources';
import { openWebhookSecret, WEBHOOK_SECRET } from './webhook-secrets';

const NAME = 'Rakotondrazafy Anciennesource';
const PHONE = '+261 34 55 666 77';
const NOTE = 'Gardien du marché Analakely';
const OLD_NAME = 'Ramanantsoavina Premiernom';
const TOTP = Buffer.alloc(20, 7).toString('base64');
/** A signing secret as 0039's first version stored it: in clear. */
const WEBHOOK_KEY = Buffer.alloc(32, 0x5a).toString('base64');
const WEBHOOK_SECRET_CLEAR = `whsec_${WEBHOOK_KEY}`;
/** Notes typed in clear, two of them starting like a sealed value (free text may). */
const NOTES = {
  'NOT-OLD0-0001': 'Le cousin Randriamampionona-Ancien a rappele',
  'NOT-OLD0-0002': 'v1: appel de Razanamparany-Ancienne\nsuite demain',
  'NOT-OLD0-0003': 'v1:Rasolofonirina',
};

async function writeAsOldVersion(
  tdb: TestDatabase,
): Promise<{ report: number; user: number; endpoint: number }> {
  const { db } = tdb;
  await seed(db);
  const user = await createUser(db, {
    email: 'ancien@example.mg',
    nomPrenom: 'Rabe Ancien',
    roleCode: 'ROLE_USER',
  });
  const [partner] = await db.read.select({ id: db.t.partenaires.id }).from(db.t.partenaires).limit(1);
  return db.transaction(async (tx) => {
    const t = db.t;
    const searchText = buildSearchText(['SIG-OLD0-0001', 'Détournement de fonds', NAME]);
    const [report] = await tx
      .insert(t.signalements)
      .values({
        code: 'SIG-OLD0-0001',
        signalementAt: new Date('2024-05-02'),
        createdById: user.id,
        partenaireId: partner!.id,
        description: 'Détournement de fonds',
        searchText,
      })
      .returning({ id: t.signalements.id });
    await recordSearchTerms(db, tx, [searchText]);
    await tx.insert(t.sources).values({
      code: 'SRC-OLD0-0001',
      signalementId: report!.id,
      nomPrenom: NAME,
      contact: PHONE,
      description: NOTE,
    });
    await tx.insert(t.signalementHistorique).values({
      signalementId: report!.id,
      userId: user.id,
      at: new Date('2024-05-03'),
      action: 'source.modification',
      changes: {
        code: { from: 'SRC-OLD0-0001', to: 'SRC-OLD0-0001' },
        nomPrenom: { from: OLD_NAME, to: NAME },
        contact: { from: null, to: PHONE },
      },
    });
    await tx.insert(t.twoFactorKeys).values({ userId: user.id, key: TOTP });
    await tx.insert(t.reportNotes).values(
      Object.entries(NOTES).map(([code, texte]) => ({
        code,
        signalementId: report!.id,
        authorId: user.id,
        texte,
        createdAt: new Date('2024-05-04'),
      })),
    );
    const [endpoint] = await tx
      .insert(t.webhookEndpoints)
      .values({
        partenaireId: partner!.id,
        url: 'https://ancien.example.mg/hook',
        secret: WEBHOOK_SECRET_CLEAR,
      })
      .returning({ id: t.webhookEndpoints.id });
    return { report: report!.id, user: user.id, endpoint: endpoint!.id };
  });
}

describe.each(await testEngines())('migration of a database with sources in clear on %s', (engine) => {
  let tdb: TestDatabase | undefined;
  let running: Running | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
    await tdb?.drop();
    tdb = undefined;
    vi.restoreAllMocks();
  });

  it('encrypts sources, their history, TOTP keys, notes and webhook secrets at the next start, and takes the names out of the search', async () => {
    tdb = await createTestDatabase(engine);
    const ids = await writeAsOldVersion(tdb);
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    running = await start({
      DATABASE_URL: tdb.url,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATA_KEY: formatDataKey(generateDataKey()),
    });
    const { db } = running;
    const cipher = running.ctx.cipher!;
    const t = db.t;

    const [source] = await db.read.select().from(t.sources).where(eq(t.sources.signalementId, ids.report));
    for (const value of [source!.nomPrenom, source!.contact, source!.description])
      expect(isEncrypted(value)).toBe(true);
    expect(openSource(cipher, source!)).toMatchObject({ nomPrenom: NAME, contact: PHONE, description: NOTE });
    expect(source!.nomIndex).toBe(cipher.blindIndex(NAME));

    const [entry] = await db.read
      .select()
      .from(t.signalementHistorique)
      .where(eq(t.signalementHistorique.signalementId, ids.report));
    expect(JSON.stringify(entry!.changes)).not.toContain('Rakotondrazafy');
    expect(openSourceChanges(cipher, entry!.changes as never)).toMatchObject({
      nomPrenom: { from: OLD_NAME, to: NAME },
      contact: { from: null, to: PHONE },
    });

    const [key] = await db.read.select().from(t.twoFactorKeys).where(eq(t.twoFactorKeys.userId, ids.user));
    expect(cipher.decrypt(key!.key, 'two_factor_keys.key')).toBe(TOTP);

    const notes = await db.read
      .select({ code: t.reportNotes.code, texte: t.reportNotes.texte })
      .from(t.reportNotes);
    expect(notes).toHaveLength(3);
    for (const note of notes)
      expect(cipher.decrypt(note.texte, 'report_notes.texte', note.code)).toBe(
        NOTES[note.code as keyof typeof NOTES],
      );

    // The webhook secret is sealed, bound to its endpoint, and opens to the same value (signing goes on).
    const [endpoint] = await db.read
      .select({ secret: t.webhookEndpoints.secret })
      .from(t.webhookEndpoints)
      .where(eq(t.webhookEndpoints.id, ids.endpoint));
    expect(isEncrypted(endpoint!.secret)).toBe(true);
    expect(openWebhookSecret(cipher, WEBHOOK_SECRET, ids.endpoint, endpoint!.secret)).toBe(
      WEBHOOK_SECRET_CLEAR,
    );

    const [report] = await db.read
      .select({ searchText: t.signalements.searchText })
      .from(t.signalements)
      .where(eq(t.signalements.id, ids.report));
    expect(report!.searchText).toContain('detournement de fonds');
    expect(report!.searchText).not.toContain('rakotondrazafy');

    // Nothing left to do at the next start.
    expect(await encryptPlaintext(db, cipher)).toEqual({
      sources: 0,
      history: 0,
      reports: 0,
      totpKeys: 0,
      notes: 0,
      webhookSecrets: 0,
    });

    const raw =
      engine === 'sqlite'
        ? [tdb.url.replace(/^file:/, '')]
            .flatMap((p) => [p, `${p}-wal`])
            .filter(existsSync)
            .map((p) => readFileSync(p).toString('latin1'))
            .join('\n')
        : execFileSync('/usr/bin/pg_dump', ['--no-owner', tdb.url], {
            encoding: 'utf8',
            maxBuffer: 256 * 1024 * 1024,
          });
    expect(raw).toContain('SIG-OLD0-0001');
    for (const secret of [
      NAME,
      PHONE,
      NOTE,
      OLD_NAME,
      'rakotondrazafy',
      'anciennesource',
      'ramanantsoavina',
      TOTP,
      WEBHOOK_KEY,
      'randriamampionona',
      'razanamparany',
      'rasolofonirina',
    ]) {
      expect(raw.toLowerCase(), secret).not.toContain(secret.toLowerCase());
    }
    if (engine === 'sqlite') {
      const terms = await db.rows<{ term: string }>(
        sql`select term from search_terms where term like '%rakotondrazafy%' or term like '%anciennesource%'`,
      );
      expect(terms).toEqual([]);
      expect(
        (await db.rows<{ term: string }>(sql`select term from search_terms where term = 'detournement'`))
          .length,
      ).toBe(1);
    }
  });
});
