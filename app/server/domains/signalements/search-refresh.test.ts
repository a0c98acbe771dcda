// A patch or a move reads its report's parts once after the write (decision 0058): its search text is
// written again, names of its people included, when what it is made of changed, and left alone when not.
// Both engines.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport, mergePatch } from '#tests/helpers/signalements';
import { serverSuite } from '#tests/helpers/suite';
import { buildSearchText } from './search-text';

describe.each(await testEngines())('search text after a patch or a move on %s', (engine) => {
  const { app: t, user } = serverSuite(engine);
  let code = '';

  const stored = async () => {
    const s = t.db.t.signalements;
    const [row] = await t.db.read.select({ searchText: s.searchText }).from(s).where(eq(s.code, code));
    return row!.searchText;
  };
  /** Marks the stored text, so that a test can tell whether a write replaced it. */
  const mark = async () => {
    const s = t.db.t.signalements;
    await t.db.transaction(async (tx) => {
      await tx.update(s).set({ searchText: 'marque' }).where(eq(s.code, code));
    });
  };
  const patch = async (body: object, url = `/api/signalements/${code}`) => {
    const res = await mergePatch(t, user.cookie, url, body);
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    code = await createReport(t, user.cookie, { subjects: ['/api/subjects/FRAUDE'] });
    for (const [path, nomPrenom] of [
      ['/api/victimes', 'Rasoa Victime'],
      ['/api/presume_auteurs', 'Rakoto Auteur'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: path,
        headers: { cookie: user.cookie, ...SAME_ORIGIN },
        payload: { nomPrenom, signalement: `/api/signalements/${code}` },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });

  it('leaves it alone after a patch of fields it is not made of', async () => {
    await mark();
    await patch({ statut: '/api/statuts/EN_COURS', niveau: '/api/niveaux/ELEVE', isRecurrent: true });
    expect(await stored()).toBe('marque');
  });

  it('writes it again, with the people’s names, after a patch of its description or subjects', async () => {
    await mark();
    await patch({ description: 'Marché public de Toamasina' });
    const p = t.db.t.partenaires;
    const [partner] = await t.db.read.select().from(p).where(eq(p.code, 'IVY'));
    expect(await stored()).toBe(
      buildSearchText([
        code,
        'Marché public de Toamasina',
        partner!.designation,
        'IVY',
        'Fraude',
        'Rakoto Auteur',
        'Rasoa Victime',
      ]),
    );
    await mark();
    await patch({ subjects: ['/api/subjects/EXTORSION', '/api/subjects/FRAUDE'] });
    expect(await stored()).toContain('fraude extorsion rakoto auteur rasoa victime');
  });

  it('writes it again after a move, with the place names, and leaves it after a move to the same place', async () => {
    await mark();
    await patch({ region: '/api/regions/MG11' }, `/api/signalements/${code}/localisation`);
    expect(await stored()).toContain('analamanga rakoto auteur');
    await mark();
    await patch({ region: '/api/regions/MG11' }, `/api/signalements/${code}/localisation`);
    expect(await stored()).toBe('marque');
  });
});
