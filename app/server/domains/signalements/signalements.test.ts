import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { serverSuite } from '#tests/helpers/suite';
import { createReport, mergePatch } from '#tests/helpers/signalements';
import { isSignalementCode } from './code';

describe.each(await testEngines())('reports on %s', (engine) => {
  const {
    app: t,
    admin,
    user: creator,
  } = serverSuite(engine, {
    user: { email: 'createur@example.mg', roleCode: 'ROLE_GESTIONNAIRE', nomPrenom: 'Rakoto Créateur' },
  });
  let other: string;
  beforeAll(async () => {
    await t.user('autre@example.mg', 'ROLE_USER', 'Rabe Autre');
    other = await t.login('autre@example.mg');
  });

  const get = (code: string, cookie = creator.cookie) =>
    t.app.inject({ url: `/api/signalements/${code}`, headers: { cookie } });
  const post = (payload: unknown, cookie = creator.cookie) =>
    t.app.inject({
      method: 'POST',
      url: '/api/signalements',
      headers: { cookie },
      payload: payload as object,
    });

  describe('creation', () => {
    it('creates a report with a random SIG- code, the session user as creator, and returns it', async () => {
      const res = await post({
        partenaire: '/api/partenaires/IVY',
        subjects: ['/api/subjects/CORRUPTION', '/api/subjects/FRAUDE'],
        canalPrincipal: '/api/canals/TELEPHONE',
        signalementAt: '2025-02-01T08:30:00.000Z',
      });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(isSignalementCode(body.code)).toBe(true);
      expect(res.headers.location).toBe(`/api/signalements/${body.code}`);
      expect(body).toMatchObject({
        '@id': `/api/signalements/${body.code}`,
        partenaire: { code: 'IVY', designation: 'Ivorary' },
        createdBy: { email: 'createur@example.mg', nomPrenom: 'Rakoto Créateur' },
        canalPrincipal: { code: 'TELEPHONE' },
        signalementAt: '2025-02-01T08:30:00.000Z',
        isTreated: false,
        closeAt: null,
        canEdit: true,
      });
      expect(body.subjects.map((s: { code: string }) => s.code)).toEqual(['CORRUPTION', 'FRAUDE']);
      expect(body.lastActionAt).not.toBeNull();
    });

    it('accepts the same input through tRPC (bare codes) and returns the code', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/trpc/signalements.create',
        headers: { cookie: creator.cookie },
        payload: {
          partenaire: 'IVY',
          subjects: ['NEGLIGENCE'],
          canalPrincipal: 'EMAIL',
          signalementAt: '2025-01-05',
        },
      });
      expect(res.statusCode).toBe(200);
      expect(isSignalementCode(res.json().result.data.code)).toBe(true);
    });

    it.each([
      [{}, 'partenaire', 'Le partenaire concerné est obligatoire.'],
      [{ subjects: [] }, 'subjects', 'Au moins un objet de plainte est obligatoire.'],
      [{ canalPrincipal: '' }, 'canalPrincipal', 'Le canal de réception principal est obligatoire.'],
      [{ signalementAt: '' }, 'signalementAt', 'La date de signalement est obligatoire.'],
      [
        { subjects: ['/api/subjects/OTHERS'], autreObject: '   ' },
        'autreObject',
        "La description pour 'Autre' est obligatoire.",
      ],
      [
        { canalPrincipal: '/api/canals/OTHERS' },
        'autreCanalPrincipal',
        "La description pour 'Autre Canal' est obligatoire.",
      ],
      [{ signalementAt: '2999-01-01' }, 'signalementAt', 'La date ne peut pas être dans le futur.'],
      [
        { signalementAt: '1899-12-31' },
        'signalementAt',
        'La date ne peut pas être antérieure au 01/01/1900.',
      ],
    ])('refuses %j with the §5 message on %s', async (override, path, message) => {
      const base = {
        partenaire: '/api/partenaires/IVY',
        subjects: ['/api/subjects/CORRUPTION'],
        canalPrincipal: '/api/canals/TELEPHONE',
        signalementAt: '2025-03-10',
      };
      const payload = path === 'partenaire' ? { ...base, partenaire: undefined } : { ...base, ...override };
      const res = await post(payload);
      expect(res.statusCode).toBe(400);
      const violation = res.json().violations.find((v: { propertyPath: string }) => v.propertyPath === path);
      expect(violation?.message).toBe(message);
    });

    it('refuses an instant still on 31 December 1899 in the business zone (the schema cannot know the zone)', async () => {
      const res = await post({
        partenaire: '/api/partenaires/IVY',
        subjects: ['/api/subjects/CORRUPTION'],
        canalPrincipal: '/api/canals/TELEPHONE',
        signalementAt: '1899-12-31T18:00:00Z',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('La date ne peut pas être antérieure au 01/01/1900.');
    });

    it('refuses an unknown partner with a 400, and writes nothing', async () => {
      const before = await t.db.read.select().from(t.db.t.signalements);
      const res = await post({
        partenaire: '/api/partenaires/NOPE',
        subjects: ['/api/subjects/CORRUPTION'],
        canalPrincipal: '/api/canals/TELEPHONE',
        signalementAt: '2025-03-10',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Partenaire introuvable : NOPE.');
      expect(await t.db.read.select().from(t.db.t.signalements)).toHaveLength(before.length);
    });

    it('keeps the OTHERS precisions only with OTHERS', async () => {
      const code = await createReport(t, creator.cookie, {
        subjects: ['/api/subjects/OTHERS'],
        autreObject: 'Vente de faux diplômes',
        canalPrincipal: '/api/canals/EMAIL',
        autreCanalPrincipal: 'ignoré',
      });
      const body = (await get(code)).json();
      expect(body.autreObject).toBe('Vente de faux diplômes');
      expect(body.autreCanalPrincipal).toBeNull();
    });
  });

  describe('rights', () => {
    it('lets any logged-in user read, but only the creator or an admin patch', async () => {
      const code = await createReport(t, creator.cookie);
      const read = await get(code, other);
      expect(read.statusCode).toBe(200);
      expect(read.json().canEdit).toBe(false);
      expect((await get(code, admin.cookie)).json().canEdit).toBe(true);

      const refused = await mergePatch(t, other, `/api/signalements/${code}`, { description: 'piratage' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe('Lecture seule - Vous ne pouvez pas modifier ce signalement');
      expect((await get(code)).json().description).toBeNull();
      const trpc = await t.app.inject({
        method: 'POST',
        url: '/trpc/signalements.update',
        headers: { cookie: other },
        payload: { code, patch: { description: 'piratage' } },
      });
      expect(trpc.statusCode).toBe(403);

      const byAdmin = await mergePatch(t, admin.cookie, `/api/signalements/${code}`, {
        description: 'vu par admin',
      });
      expect(byAdmin.statusCode).toBe(200);
      expect(byAdmin.json().description).toBe('vu par admin');
    });

    it('matches the creator by e-mail whatever its case', async () => {
      const code = await createReport(t, creator.cookie);
      await t.db.transaction((tx) =>
        tx
          .update(t.db.t.utilisateurs)
          .set({ email: 'createur@example.mg' })
          .where(eq(t.db.t.utilisateurs.email, 'createur@example.mg')),
      );
      expect(
        (await mergePatch(t, creator.cookie, `/api/signalements/${code}`, { isRecurrent: true })).statusCode,
      ).toBe(200);
    });

    it('answers 404 with the French message for an unknown code', async () => {
      const res = await get('SIG-0000-0000');
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Signalement non trouvé.');
    });
  });

  describe('merge-patch', () => {
    it('changes only the given fields, clears with null, and validates subjects and OTHERS on the merged result', async () => {
      const code = await createReport(t, creator.cookie);
      const url = `/api/signalements/${code}`;
      const res = await mergePatch(t, creator.cookie, url, {
        description: 'Des fonds ont disparu',
        isConfict: true,
        niveau: '/api/niveaux/ELEVE',
        resultat: '/api/resultats/RESULTAT_AVERE',
        actionProvisoires: ['Audit', '  ', 'Suspension'],
        preuves: ['Reçu n°12'],
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        description: 'Des fonds ont disparu',
        isConfict: true,
        isRecurrent: false,
        niveau: { code: 'ELEVE' },
        resultat: { code: 'RESULTAT_AVERE' },
        actionProvisoires: ['Audit', 'Suspension'],
        preuves: ['Reçu n°12'],
      });
      const cleared = await mergePatch(t, creator.cookie, url, { niveau: null, description: null });
      expect(cleared.json()).toMatchObject({
        niveau: null,
        description: null,
        resultat: { code: 'RESULTAT_AVERE' },
      });

      const noSubject = await mergePatch(t, creator.cookie, url, { subjects: [] });
      expect(noSubject.statusCode).toBe(400);
      expect(noSubject.json().message).toBe('Au moins un sujet est obligatoire.');
      const others = await mergePatch(t, creator.cookie, url, { subjects: ['/api/subjects/OTHERS'] });
      expect(others.statusCode).toBe(400);
      expect(others.json().message).toBe("La description pour 'Autre' est obligatoire.");
      const canal = await mergePatch(t, creator.cookie, url, { canalPrincipal: '/api/canals/OTHERS' });
      expect(canal.json().message).toBe("La description pour 'Autre Canal' est obligatoire.");
      expect((await get(code)).json().subjects.map((s: { code: string }) => s.code)).toEqual(['CORRUPTION']);

      const unknown = await mergePatch(t, creator.cookie, url, { couleur: 'rouge' });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().message).toBe('Champ inconnu : couleur.');
    });

    it('drives isTreated and closeAt through the statut kind', async () => {
      const code = await createReport(t, creator.cookie);
      const url = `/api/signalements/${code}`;
      const treated = (await mergePatch(t, creator.cookie, url, { statut: '/api/statuts/TRAITE' })).json();
      expect(treated).toMatchObject({
        isTreated: true,
        closeAt: null,
        statut: { code: 'TRAITE', kind: 'treated' },
      });
      const closed = (await mergePatch(t, creator.cookie, url, { statut: '/api/statuts/CLOTURE' })).json();
      expect(closed.isTreated).toBe(true);
      expect(closed.closeAt).not.toBeNull();
      const reopened = (await mergePatch(t, creator.cookie, url, { statut: '/api/statuts/EN_COURS' })).json();
      expect(reopened).toMatchObject({ isTreated: false, closeAt: null });
    });

    it('links projects of the report partner only', async () => {
      const code = await createReport(t, creator.cookie);
      const project = await t.app.inject({
        method: 'POST',
        url: '/api/projects',
        headers: { cookie: creator.cookie },
        payload: { sigle: 'PAGI', designation: 'Programme de gouvernance', owner: '/api/partenaires/IVY' },
      });
      expect(project.statusCode).toBe(201);
      const projectCode = project.json().code;
      const res = await mergePatch(t, creator.cookie, `/api/signalements/${code}`, {
        projects: [`/api/projects/${projectCode}`],
      });
      expect(res.json().projects).toMatchObject([
        { code: projectCode, sigle: 'PAGI', owner: { code: 'IVY' } },
      ]);
      const [other] = await t.db.transaction((tx) =>
        tx
          .insert(t.db.t.partenaires)
          .values({ code: 'AUTRE', designation: 'Autre partenaire', initial: 'AP', color: '#000000' })
          .returning(),
      );
      // The creator may not create a project for a partner of none of their reports (0015): inserted here.
      await t.db.transaction((tx) =>
        tx
          .insert(t.db.t.projects)
          .values({ code: 'PRJ-ETRANGER', sigle: 'X', designation: 'Projet étranger', ownerId: other!.id }),
      );
      const refused = await mergePatch(t, creator.cookie, `/api/signalements/${code}`, {
        projects: ['/api/projects/PRJ-ETRANGER'],
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toContain("n'appartient pas au partenaire du signalement");
    });
  });

  describe('history and lastActionAt', () => {
    it('records who changed which fields, old and new values, newest first', async () => {
      const code = await createReport(t, creator.cookie);
      await mergePatch(t, creator.cookie, `/api/signalements/${code}`, {
        statut: '/api/statuts/TRAITE',
        isRecurrent: true,
      });
      const res = await t.app.inject({
        url: `/api/signalements/${code}/historique`,
        headers: { cookie: other },
      });
      const [latest, first] = res.json().member;
      expect(first.action).toBe('creation');
      expect(latest.action).toBe('modification');
      // The author is named, without an e-mail (least privilege, docs/decisions/0015).
      expect(latest.user).toEqual({ code: expect.any(String), nomPrenom: 'Rakoto Créateur' });
      expect(latest.changes).toEqual({
        statut: { from: null, to: 'Traité' },
        isTreated: { from: false, to: true },
        isRecurrent: { from: false, to: true },
      });
    });

    it('writes nothing to the history when a patch changes nothing, and nothing at all when refused', async () => {
      const code = await createReport(t, creator.cookie);
      await mergePatch(t, creator.cookie, `/api/signalements/${code}`, { isRecurrent: false });
      await mergePatch(t, other, `/api/signalements/${code}`, { isRecurrent: true });
      const res = await t.app.inject({
        url: `/api/signalements/${code}/historique`,
        headers: { cookie: creator.cookie },
      });
      expect(res.json().member).toHaveLength(1);
    });

    it('moves lastActionAt on each change unless the patch gives it', async () => {
      const code = await createReport(t, creator.cookie);
      const given = '2025-04-01T10:00:00.000Z';
      const explicit = (
        await mergePatch(t, creator.cookie, `/api/signalements/${code}`, { lastActionAt: given })
      ).json();
      expect(explicit.lastActionAt).toBe(given);
      const moved = (
        await mergePatch(t, creator.cookie, `/api/signalements/${code}`, { description: 'suite' })
      ).json();
      expect(new Date(moved.lastActionAt).getTime()).toBeGreaterThan(new Date(given).getTime());
    });
  });

  describe('location', () => {
    it('sets region, district, commune and fokontany, refusing an inconsistent hierarchy', async () => {
      const code = await createReport(t, creator.cookie);
      const url = `/api/signalements/${code}/localisation`;
      const districts = (
        await t.app.inject({ url: '/api/districts?region.code=MG11', headers: { cookie: creator.cookie } })
      ).json().member;
      const district = districts[0].code as string;
      const communes = (
        await t.app.inject({
          url: `/api/communes?district.code=${district}`,
          headers: { cookie: creator.cookie },
        })
      ).json().member;
      const ok = await mergePatch(t, creator.cookie, url, {
        region: '/api/regions/MG11',
        district: `/api/districts/${district}`,
        commune: `/api/communes/${communes[0].code}`,
        fokontany: 'Ambohijatovo',
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({
        region: { code: 'MG11' },
        district: { code: district },
        fokontany: 'Ambohijatovo',
      });

      const wrong = await mergePatch(t, creator.cookie, url, {
        region: '/api/regions/MG23',
        district: `/api/districts/${district}`,
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toBe('Le district ne fait pas partie de la région choisie.');
      const orphan = await mergePatch(t, creator.cookie, url, {
        region: '/api/regions/MG11',
        commune: `/api/communes/${communes[0].code}`,
      });
      expect(orphan.json().message).toBe('La commune ne fait pas partie du district choisi.');
      expect((await t.app.inject({ url, headers: { cookie: other } })).json().district.code).toBe(district);

      expect((await mergePatch(t, other, url, { region: null })).statusCode).toBe(403);
      const cleared = await mergePatch(t, creator.cookie, url, { region: null });
      expect(cleared.json()).toEqual({ region: null, district: null, commune: null, fokontany: null });
    });
  });
});
