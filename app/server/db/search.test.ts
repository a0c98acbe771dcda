// The list search must find exactly the reports whose search_text contains every word of the query,
// whichever route a word takes (word index, trigram index, LIKE) and whichever plan the list picks; the
// word route depends on search_terms listing every indexed token, checked after each kind of write.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { createReport, mergePatch } from '#tests/helpers/signalements';
import { countSignalements, filterConditions } from '../domains/signalements/queries';
import { PATHS } from '../paths';
import { MAX_WORD_TERMS, planSearch, searchTokens, searchWords } from './search';
import { seedDemo } from './seed/demo';

describe('searchTokens', () => {
  it('splits a text into the very tokens of FTS5’s ascii tokenizer', () => {
    const conn = new Sqlite(':memory:');
    conn.exec(`create virtual table w using fts5(x, tokenize='ascii', detail=none);
               create virtual table v using fts5vocab(w, 'row');`);
    const texts = [
      'sig-4k7m-q2zx détournement de 1,5 million ar',
      "l’état d’urgence, l'etat (bis) [x] {y} <z> a|b~c^d`e",
      'RAHARISON Jean-Baptiste tab\tnew\nline',
      'straße ñandú ǅemal ковальчук 🙂x x\u00a0y',
      'a_b%c\\d e"f g:h;i=j?k@l!m#n$o&p*q+r/s',
    ];
    for (const text of texts) {
      conn.exec('delete from w');
      conn.prepare('insert into w(x) values (?)').run(text);
      // eslint-disable-next-line no-restricted-syntax -- a bare better-sqlite3 connection, not the query builder
      const indexed = conn
        .prepare('select term from v order by term')
        .all()
        .map((r) => (r as { term: string }).term);
      const ours = [...new Set(searchTokens(text))].sort((a, b) =>
        Buffer.from(a) < Buffer.from(b) ? -1 : 1,
      );
      expect(ours, text).toEqual(indexed);
    }
    conn.close();
  });
});

describe.each(await testEngines())('search routes on %s', (engine) => {
  let t: TestApp;
  let cookie: string;
  const codes: string[] = [];
  // More tokens contain 'kwzq' than the word index takes at once, so it goes through the trigrams.
  const manyTokens = Array.from({ length: MAX_WORD_TERMS + 3 }, (_, i) => `kwzq${i}`).join(' ');
  beforeAll(async () => {
    t = await createTestApp(engine);
    await t.user('a@example.mg', 'ROLE_USER', 'Agent A');
    cookie = await t.login('a@example.mg');
    const descriptions = [
      'Détournement de la caisse communale par RAHARISON Jean',
      'Marché public truqué à Ambohimanarina, l’état des lieux',
      `Liste ${manyTokens}`,
      'Straße Ковальчук 🙂 œuvre',
    ];
    for (const description of descriptions) {
      const code = await createReport(t, cookie);
      expect((await mergePatch(t, cookie, `/api/signalements/${code}`, { description })).statusCode).toBe(
        200,
      );
      codes.push(code);
    }
    const auteur = await t.app.inject({
      method: 'POST',
      url: '/api/presume_auteurs',
      headers: { cookie },
      payload: { nomPrenom: 'Andrianjafy Hery', signalement: `/api/signalements/${codes[1]}` },
    });
    expect(auteur.statusCode).toBe(201);
  });
  afterAll(async () => t?.close());

  const s = () => t.db.t.signalements;
  /** What the search must find: the reports whose search_text contains every word. */
  const reference = async (query: string) => {
    const words = searchWords(query);
    const rows = await t.db.read.select({ id: s().id, text: s().searchText }).from(s());
    return rows
      .filter((r) => words.every((w) => r.text.includes(w)))
      .map((r) => r.id)
      .sort((a, b) => a - b);
  };
  const found = async (query: string, plan: Parameters<typeof filterConditions>[2]) =>
    (
      await t.db.read
        .select({ id: s().id })
        .from(s())
        .where(await filterConditions(t.ctx, { search: query }, plan))
    )
      .map((r) => r.id)
      .sort((a, b) => a - b);

  const QUERIES = [
    'rison', // inside a token: the word index, through the tokens that contain it
    'raharison jean',
    'tournement communale',
    'hery andrianjafy',
    'himanarina',
    "l'etat", // a separator inside the word: trigrams
    'kwzq', // too many tokens: trigrams
    'kwzq7',
    'kwzq7 rison', // both indexes at once
    'ковальчук',
    'straße',
    'oeuvre',
    'ana', // 3 characters: trigrams
    'ra', // 2 characters: LIKE
    'ra rison',
    'zzzzz', // no token contains it
    'sig-',
  ];

  it('finds exactly the reports containing every word, whatever the plan', async () => {
    for (const query of QUERIES) {
      const expected = await reference(query);
      expect(await found(query, { mode: 'set' }), query).toEqual(expected);
      expect(await found(query, { mode: 'page', searchStrategy: 'index' }), query).toEqual(expected);
      expect(await found(query, { mode: 'page', searchStrategy: 'scan' }), query).toEqual(expected);
      expect(await found(query, { mode: 'page', searchStrategy: 'sequential' }), query).toEqual(expected);
      expect(await countSignalements(t.ctx, { search: query }), query).toBe(expected.length);
    }
    expect((await reference('rison')).length).toBe(1);
    expect((await reference('kwzq7 rison')).length).toBe(0);
    expect((await reference('kwzq7')).length).toBe(1);
  });

  it('routes each word as documented', async () => {
    const routes = async (query: string) => (await planSearch(t.db, query)).map((w) => w.via);
    if (engine === 'postgres') {
      expect(await routes('rison ana ra')).toEqual(['like', 'like', 'like']);
      return;
    }
    const [rison] = await planSearch(t.db, 'rison');
    expect(rison).toEqual({ word: 'rison', via: 'terms', terms: ['raharison'] });
    expect(await planSearch(t.db, 'zzzzz')).toEqual([{ word: 'zzzzz', via: 'terms', terms: [] }]);
    expect(await routes("kwzq l'etat ana ra")).toEqual(['trigram', 'trigram', 'trigram', 'like']);
  });

  const missingTerms = async () =>
    t.db.rows<{ term: string }>(
      sql`select term from signalements_words_vocab where term not in (select term from search_terms)`,
    );

  it.runIf(engine === 'sqlite')('lists every indexed token after the service’s writes', async () => {
    expect(await missingTerms()).toEqual([]);
    expect(
      (
        await mergePatch(t, cookie, `/api/signalements/${codes[0]}`, {
          description: 'Nouvelle version Vavatenina',
        })
      ).statusCode,
    ).toBe(200);
    await mergePatch(t, cookie, `/api/signalements/${codes[0]}/localisation`, {
      region: '/api/regions/MG11',
    });
    expect(await missingTerms()).toEqual([]);
    expect(await countSignalements(t.ctx, { search: 'vatenin' })).toBe(1);
    expect(await countSignalements(t.ctx, { search: 'analamanga' })).toBe(1);
    // The old description is no longer found, though its tokens stay listed (they match nothing).
    expect(await countSignalements(t.ctx, { search: 'rison' })).toBe(0);
  });

  it.runIf(engine === 'sqlite')('lists the tokens of the demo generator’s reports', async () => {
    await seedDemo(t.ctx, { reports: 40, seed: 3 });
    expect(await missingTerms()).toEqual([]);
  });

  it.runIf(engine === 'sqlite')(
    'rebuilds the token list from the word index with the migration’s statement',
    async () => {
      const statements = readFileSync(join(PATHS.migrations.sqlite, '0005_search_words.sql'), 'utf8').split(
        '--> statement-breakpoint',
      );
      const backfill = statements.at(-1)!.trim();
      expect(backfill).toMatch(/^INSERT INTO `search_terms`/);
      await t.db.execute(sql`delete from search_terms`);
      expect((await missingTerms()).length).toBeGreaterThan(10);
      await t.db.execute(sql.raw(backfill));
      expect(await missingTerms()).toEqual([]);
      expect(await found('himanarina', { mode: 'set' })).toEqual(await reference('himanarina'));
      expect(await countSignalements(t.ctx, { search: 'himanarina' })).toBe(1);
    },
  );
});
