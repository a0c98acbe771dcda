// Saved filters « Mes filtres » (docs/decisions/0046-saved-filters.md) on both engines: who sees and who
// manages a personal and a shared filter, the query string checked and stored normalised, hostile input
// refused with a French 400, the name unique per owner, the limit per user, a deleted account's filters,
// and a shared filter that opens the list under the reader's own rights.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { FILTRE_NOM_MAX, FILTRES_MAX_PAR_UTILISATEUR } from '#shared/constants';
import type { FiltreDto, FiltresDto } from '#shared/dto/filtres';
import { apiFilters, parseListSearch } from '#shared/list-url';
import { FILTRE_MESSAGES } from '#shared/schemas/filtres';
import { MESSAGES } from '#server/errors';
import { testEngines } from '#tests/helpers/db';
import { addPeople, PEOPLE, SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport, mergePatch } from '#tests/helpers/signalements';
import { serverSuite } from '#tests/helpers/suite';
import { REQUETE_TEXTS } from './requete';
import { FILTRE_TEXTS } from './service';

describe.each(await testEngines())('saved filters on %s', (engine) => {
  // The list's first read starts the read threads: on a loaded machine that may pass the default 30 s.
  const suite = serverSuite(engine, { env: { READ_JOB_TIMEOUT_SECONDS: '120' } });
  const t = suite.app;
  const cookie = { owner: '', other: '', admin: '' };
  type Caller = keyof typeof cookie;

  beforeAll(async () => {
    await t.user('autre@example.mg', 'ROLE_USER', 'Rakoto Autre');
    cookie.owner = suite.user.cookie;
    cookie.admin = suite.admin.cookie;
    cookie.other = await t.login('autre@example.mg');
  });

  const call = (
    caller: Caller | string,
    path: string,
    input?: unknown,
    kind: 'query' | 'mutation' = 'mutation',
  ) =>
    t.app.inject({
      method: kind === 'query' ? 'GET' : 'POST',
      url:
        kind === 'query'
          ? `/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`
          : `/trpc/${path}`,
      headers: {
        cookie: caller in cookie ? cookie[caller as Caller] : caller,
        ...SAME_ORIGIN,
        ...(kind === 'mutation' ? { 'content-type': 'application/json' } : {}),
      },
      ...(kind === 'mutation'
        ? { payload: typeof input === 'string' ? input : JSON.stringify(input ?? {}) }
        : {}),
    });
  const list = async (caller: Caller | string): Promise<FiltresDto> => {
    const res = await call(caller, 'filtres.list', undefined, 'query');
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result.data;
  };
  const save = async (
    caller: Caller | string,
    input: { nom: string; requete: string; partage?: boolean },
  ) => {
    const res = await call(caller, 'filtres.create', input);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result.data as FiltreDto;
  };
  const refusal = async (caller: Caller, path: string, input: unknown) => {
    const res = await call(caller, path, input);
    return { status: res.statusCode, message: res.json().error?.message as string };
  };
  const names = (filtres: FiltreDto[]) => filtres.map((f) => f.nom);

  it('stores the query string normalised: page dropped, duplicates and blanks gone, keys in the list order', async () => {
    const saved = await save('owner', {
      nom: '  Vols de Vakinankaratra  ',
      requete:
        '?au=2026-01-31&page=3&q=+vol+&partenaire=IVY&partenaire=IVY&objet=&region=VAKINANKARATRA&tri=code',
    });
    expect(saved.nom).toBe('Vols de Vakinankaratra');
    expect(saved.requete).toBe('q=vol&tri=code&partenaire=IVY&region=VAKINANKARATRA&au=2026-01-31');
    expect(saved).toMatchObject({ partage: false, mien: true, gerable: true });
    expect(saved.proprietaire.code).toBe(suite.user.code);
  });

  it('shows a personal filter to its owner only, and a shared one to every staff member', async () => {
    await save('owner', { nom: 'Perso en retard', requete: 'echeance=en_retard' });
    await save('owner', { nom: 'Équipe en retard', requete: 'echeance=en_retard', partage: true });

    const mine = await list('owner');
    expect(names(mine.personnels)).toContain('Perso en retard');
    expect(names(mine.partages)).toContain('Équipe en retard');
    for (const reader of ['other', 'admin'] as const) {
      const theirs = await list(reader);
      expect(names(theirs.personnels)).not.toContain('Perso en retard');
      expect(names(theirs.partages)).not.toContain('Perso en retard');
      const shared = theirs.partages.find((f) => f.nom === 'Équipe en retard');
      expect(shared).toMatchObject({
        mien: false,
        gerable: reader === 'admin',
        requete: 'echeance=en_retard',
      });
    }
  });

  it('lets the owner manage both, an administrator a shared one, and nobody else (404 for a personal one)', async () => {
    const personal = await save('owner', { nom: 'Perso à gérer', requete: 'echeance=sous_7_jours' });
    const shared = await save('owner', {
      nom: 'Partagé à gérer',
      requete: 'echeance=sous_7_jours',
      partage: true,
    });

    expect(await refusal('other', 'filtres.rename', { id: shared.id, nom: 'Pris' })).toEqual({
      status: 403,
      message: FILTRE_TEXTS.notManager,
    });
    expect(await refusal('other', 'filtres.delete', { id: shared.id })).toMatchObject({ status: 403 });
    for (const caller of ['other', 'admin'] as const) {
      expect(await refusal(caller, 'filtres.rename', { id: personal.id, nom: 'Pris' })).toEqual({
        status: 404,
        message: FILTRE_TEXTS.notFound,
      });
      expect(await refusal(caller, 'filtres.delete', { id: personal.id })).toMatchObject({ status: 404 });
    }

    const renamed = await call('admin', 'filtres.rename', { id: shared.id, nom: 'Partagé renommé' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(names((await list('owner')).partages)).toContain('Partagé renommé');
    expect(
      (await call('owner', 'filtres.rename', { id: personal.id, nom: 'Perso renommé' })).statusCode,
    ).toBe(200);

    expect((await call('admin', 'filtres.delete', { id: shared.id })).statusCode).toBe(200);
    expect((await call('owner', 'filtres.delete', { id: personal.id })).statusCode).toBe(200);
    const after = await list('owner');
    expect(names([...after.personnels, ...after.partages])).not.toContain('Perso renommé');
    expect(names(after.partages)).not.toContain('Partagé renommé');
    expect(await refusal('owner', 'filtres.delete', { id: personal.id })).toMatchObject({ status: 404 });
  });

  it('keeps names unique per owner (409), not across owners', async () => {
    await save('owner', { nom: 'Même nom', requete: 'echeance=en_retard' });
    expect(await refusal('owner', 'filtres.create', { nom: ' Même nom ', requete: 'tri=code' })).toEqual({
      status: 409,
      message: FILTRE_TEXTS.duplicate('Même nom'),
    });
    await save('other', { nom: 'Même nom', requete: 'echeance=en_retard' });
    const second = await save('owner', { nom: 'Autre nom', requete: 'tri=code' });
    expect(await refusal('owner', 'filtres.rename', { id: second.id, nom: 'Même nom' })).toEqual({
      status: 409,
      message: FILTRE_TEXTS.duplicate('Même nom'),
    });
  });

  it.each<[string, string, string]>([
    ['an unknown parameter', 'foo=1', REQUETE_TEXTS.unknown('foo')],
    ['a prototype key', '__proto__=x', REQUETE_TEXTS.unknown('__proto__')],
    ['a constructor key', 'constructor=1&q=x', REQUETE_TEXTS.unknown('constructor')],
    [
      'an API parameter instead of the list URL',
      'partenaire.code[]=IVY',
      REQUETE_TEXTS.unknown('partenaire.code[]'),
    ],
    ['a repeated single parameter', 'region=A&region=B', REQUETE_TEXTS.repeated('region')],
    ['an unknown sort', 'tri=hasard', REQUETE_TEXTS.sort],
    ['a day in another format', 'du=31/01/2026', REQUETE_TEXTS.day],
    ['an impossible day', 'du=2026-02-31', 'Date invalide.'],
    ['an unknown deadline filter', 'echeance=demain', REQUETE_TEXTS.echeance],
    ['an unknown state filter', 'etat=clos', REQUETE_TEXTS.etat],
    ['a district without its region', 'district=X', REQUETE_TEXTS.cascade],
    ['a NUL byte', 'q=a%00b', REQUETE_TEXTS.character],
    ['a control character in a key', 'q%01=a', REQUETE_TEXTS.character],
    ['a search longer than the list allows', `q=${'a'.repeat(201)}`, 'Au plus 200 caractères.'],
    ['nothing to save', '', REQUETE_TEXTS.empty],
    ['only a page', 'page=4', REQUETE_TEXTS.empty],
  ])('refuses %s with a French 400', async (_name, requete, message) => {
    const res = await refusal('owner', 'filtres.create', { nom: `Hostile ${requete.slice(0, 20)}`, requete });
    expect(res.status).toBe(400);
    expect(res.message).toBe(message);
  });

  it.each<[string, unknown, string]>([
    ['a blank name', { nom: '   ', requete: 'tri=code' }, FILTRE_MESSAGES.nomRequis],
    [
      'a name too long',
      { nom: 'é'.repeat(FILTRE_NOM_MAX + 1), requete: 'tri=code' },
      FILTRE_MESSAGES.nomTropLong,
    ],
    ['a name with a NUL', { nom: 'a\u0000b', requete: 'tri=code' }, MESSAGES.forbiddenCharacter],
    ['a lone surrogate', { nom: 'a\ud800b', requete: 'tri=code' }, MESSAGES.forbiddenCharacter],
    [
      'a prototype key in the input',
      JSON.parse('{"__proto__":{"x":1},"nom":"a","requete":"tri=code"}'),
      MESSAGES.forbiddenKey,
    ],
    [
      'a query string too long',
      { nom: 'Long', requete: `q=${'a'.repeat(5000)}` },
      FILTRE_MESSAGES.requeteTropLongue,
    ],
    [
      'a share that is not a boolean',
      { nom: 'a', requete: 'tri=code', partage: 'oui' },
      FILTRE_MESSAGES.partage,
    ],
    ['a query string that is not text', { nom: 'a', requete: { q: 'x' } }, FILTRE_MESSAGES.requete],
  ])('refuses %s with a French 400', async (_name, input, message) => {
    expect(await refusal('owner', 'filtres.create', input)).toEqual({ status: 400, message });
  });

  it('refuses an id that is not a positive integer, and bytes that are not JSON', async () => {
    expect(await refusal('owner', 'filtres.delete', { id: 'abc' })).toEqual({
      status: 400,
      message: FILTRE_MESSAGES.id,
    });
    expect(await refusal('owner', 'filtres.delete', { id: 1e12 })).toEqual({
      status: 400,
      message: FILTRE_MESSAGES.id,
    });
    expect(await refusal('owner', 'filtres.rename', { id: -1, nom: 'x' })).toEqual({
      status: 400,
      message: FILTRE_MESSAGES.id,
    });
    const bytes = await call('owner', 'filtres.create', '\u00ff\u00fe{not json');
    expect(bytes.statusCode).toBe(400);
    expect(bytes.json().error.message).not.toMatch(/[Uu]nexpected|JSON|token/);
  });

  it('accepts a name of exactly the longest length', async () => {
    const saved = await save('owner', { nom: 'é'.repeat(FILTRE_NOM_MAX), requete: 'tri=echeance' });
    expect(saved.nom).toHaveLength(FILTRE_NOM_MAX);
  });

  it(`keeps at most ${FILTRES_MAX_PAR_UTILISATEUR} filters per user (a French 409 beyond)`, async () => {
    const email = 'collectionneur@example.mg';
    const code = await t.user(email, 'ROLE_USER', 'Ravao Collectionneur');
    const session = await t.login(email);
    const { utilisateurs: u, filtresEnregistres: f } = t.db.t;
    const [user] = await t.db.read.select({ id: u.id }).from(u).where(eq(u.code, code));
    await t.db.transaction((tx) =>
      tx.insert(f).values(
        Array.from({ length: FILTRES_MAX_PAR_UTILISATEUR - 1 }, (_, i) => ({
          nom: `Filtre ${i}`,
          requete: 'tri=code',
          ownerId: user!.id,
        })),
      ),
    );
    await save(session, { nom: 'Le dernier', requete: 'tri=code' });
    const beyond = await call(session, 'filtres.create', { nom: 'Un de trop', requete: 'tri=code' });
    expect(beyond.statusCode).toBe(409);
    expect(beyond.json().error.message).toBe(FILTRE_TEXTS.limit);
    // Another user is not counted against this one.
    await save('other', { nom: 'Pas concerné', requete: 'tri=code' });
  });

  it("takes a deleted account's filters with it, and keeps a disabled one's shared filters for the team", async () => {
    const { utilisateurs: u, filtresEnregistres: f } = t.db.t;
    const idOf = async (code: string) =>
      (await t.db.read.select({ id: u.id }).from(u).where(eq(u.code, code)))[0]!.id;
    // An account that never signed in (one that did is kept by the access log): its row can be deleted.
    const goneCode = await t.user('parti@example.mg', 'ROLE_USER', 'Rabe Parti');
    const goneId = await idOf(goneCode);
    await t.db.transaction((tx) =>
      tx.insert(f).values([
        { nom: 'Partagé du parti', requete: 'echeance=en_retard', ownerId: goneId, partage: true },
        { nom: 'Perso du parti', requete: 'echeance=en_retard', ownerId: goneId },
      ]),
    );
    const disabled = 'desactive@example.mg';
    const disabledCode = await t.user(disabled, 'ROLE_USER', 'Rasoa Désactivée');
    await save(await t.login(disabled), {
      nom: 'Partagé de la désactivée',
      requete: 'tri=code',
      partage: true,
    });
    expect(names((await list('other')).partages)).toContain('Partagé du parti');

    await t.db.transaction((tx) => tx.update(u).set({ isEnabled: false }).where(eq(u.code, disabledCode)));
    await t.db.transaction((tx) => tx.delete(u).where(eq(u.id, goneId)));

    expect(await t.db.read.select({ id: f.id }).from(f).where(eq(f.ownerId, goneId))).toEqual([]);
    const shared = (await list('other')).partages;
    expect(names(shared)).not.toContain('Partagé du parti');
    const kept = shared.find((x) => x.nom === 'Partagé de la désactivée');
    expect(kept?.proprietaire.nomPrenom).toBe('Rasoa Désactivée');
    const adminView = (await list('admin')).partages.find((x) => x.nom === 'Partagé de la désactivée');
    expect(adminView?.gerable).toBe(true);
    expect((await call('admin', 'filtres.delete', { id: kept!.id })).statusCode).toBe(200);
  });

  it("opens a shared filter under the reader's own rights: it finds no protected source the reader may not know", async () => {
    const report = await createReport(t, cookie.owner);
    await addPeople(t, cookie.owner, report);
    const anonymous = await mergePatch(t, cookie.owner, `/api/signalements/${report}`, { isAnonyme: true });
    expect(anonymous.statusCode, anonymous.body).toBe(200);
    const shared = await save('owner', {
      nom: 'Par nom de source',
      requete: `q=${encodeURIComponent(PEOPLE.source)}`,
      partage: true,
    });
    const opened = async (caller: Caller) => {
      const filtre = (await list(caller)).partages.find((x) => x.id === shared.id)!;
      const input = { page: 1, itemsPerPage: 20, ...apiFilters(parseListSearch(filtre.requete)) };
      const res = await call(caller, 'signalements.list', input, 'query');
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().result.data.items as Array<{ code: string }>).map((r) => r.code);
    };
    expect(await opened('owner')).toContain(report);
    expect(await opened('other')).not.toContain(report);
  }, 90_000);
});
