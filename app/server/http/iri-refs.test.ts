// A reference written as an IRI with a malformed percent escape names no resource: a French 400 on
// both doors and both engines, never decodeURIComponent's URIError (a 500, or tRPC's "URI malformed").
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { createReport } from '#tests/helpers/signalements';

const INVALID_REF = 'Référence invalide.';
const MALFORMED = ['%', '%zz', 'IVY%', '%E9', '%ED%A0%80', '%00', 'A%0AB'];

describe.each(await testEngines())('IRI references with malformed escapes (%s)', (engine) => {
  let t: TestApp;
  let cookie: string;
  let report: string;
  const headers = () => ({ cookie, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' });

  beforeAll(async () => {
    t = await createTestApp(engine);
    await t.user('admin-iri@example.mg', 'ROLE_ADMIN');
    cookie = await t.login('admin-iri@example.mg');
    report = await createReport(t, cookie);
  });
  afterAll(async () => t?.close());

  const rest = (method: 'POST' | 'PATCH' | 'PUT', url: string, payload: unknown) =>
    t.app.inject({ method, url, headers: headers(), payload: JSON.stringify(payload) });

  const restCases = (escape: string): Array<[string, 'POST' | 'PATCH' | 'PUT', string, unknown, string]> => [
    [
      'partenaire',
      'POST',
      '/api/signalements',
      {
        partenaire: `/api/partenaires/${escape}`,
        subjects: ['/api/subjects/CORRUPTION'],
        canalPrincipal: '/api/canals/TELEPHONE',
        signalementAt: '2025-03-10',
      },
      'partenaire',
    ],
    [
      'subjects',
      'POST',
      '/api/signalements',
      {
        partenaire: '/api/partenaires/IVY',
        subjects: [`/api/subjects/${escape}`],
        canalPrincipal: '/api/canals/TELEPHONE',
        signalementAt: '2025-03-10',
      },
      'subjects.0',
    ],
    ['niveau', 'PATCH', `/api/signalements/${report}`, { niveau: `/api/niveaux/${escape}` }, 'niveau'],
    [
      'region',
      'PUT',
      `/api/signalements/${report}/localisation`,
      { region: `/api/regions/${escape}` },
      'region',
    ],
    [
      'owner',
      'POST',
      '/api/projects',
      { sigle: 'P1', designation: 'Projet', owner: `/api/partenaires/${escape}` },
      'owner',
    ],
    [
      'signalement',
      'POST',
      '/api/victimes',
      { signalement: `/api/signalements/${escape}`, nomPrenom: 'Rasoa Be' },
      'signalement',
    ],
    [
      'utilisateurRole',
      'POST',
      '/api/utilisateur/create-user',
      { email: 'x@example.mg', nomPrenom: 'Rabe Jean', utilisateurRole: `/api/utilisateur_roles/${escape}` },
      'utilisateurRole',
    ],
  ];

  it.each(MALFORMED)(
    'REST write routes answer 400 « Référence invalide. » for an IRI ending in %s',
    async (escape) => {
      for (const [field, method, url, payload, path] of restCases(escape)) {
        const res = await rest(method, url, payload);
        expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
        const body = res.json();
        expect(body.violations).toContainEqual({ propertyPath: path, message: INVALID_REF });
        expect(body.message).toBe(INVALID_REF);
      }
    },
  );

  it.each(MALFORMED)(
    'tRPC mutations answer BAD_REQUEST « Référence invalide. » for an IRI ending in %s',
    async (escape) => {
      const cases: Array<[string, unknown]> = [
        ['projects.create', { sigle: 'P1', designation: 'Projet', owner: `/api/partenaires/${escape}` }],
        [
          'signalements.create',
          {
            partenaire: `/api/partenaires/${escape}`,
            subjects: ['CORRUPTION'],
            canalPrincipal: 'TELEPHONE',
            signalementAt: '2025-03-10',
          },
        ],
        ['signalements.update', { code: report, patch: { statut: `/api/statuts/${escape}` } }],
        ['auteurs.create', { signalement: `/api/signalements/${escape}`, nomPrenom: 'Rakoto Be' }],
      ];
      for (const [procedure, input] of cases) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/trpc/${procedure}`,
          headers: headers(),
          payload: JSON.stringify(input),
        });
        expect(res.statusCode, `${procedure}: ${res.body}`).toBe(400);
        const { error } = res.json();
        expect(error.data.code).toBe('BAD_REQUEST');
        expect(error.message).toBe(INVALID_REF);
      }
    },
  );

  it('answers a path the router cannot decode, or too long a parameter, in French (Fastify frameworkErrors)', async () => {
    for (const url of ['/api/partenaires/%', '/api/partenaires/%zz', '/api/presume_auteurs/%E9', '/trpc/%']) {
      const res = await t.app.inject({ method: 'DELETE', url, headers: headers() });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ status: 400, message: 'Requête invalide.' });
    }
    const long = await t.app.inject({
      method: 'DELETE',
      url: `/api/partenaires/${'x'.repeat(6000)}`,
      headers: headers(),
    });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ status: 414, message: 'Adresse de la requête trop longue.' });
  });

  it('still decodes a well-formed escape and finds the resource', async () => {
    const res = await rest('POST', '/api/projects', {
      sigle: 'P2',
      designation: 'Projet encodé',
      owner: '/api/partenaires/%49VY',
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('changed nothing: no project, report, person or user was written by the refused requests', async () => {
    // The one report of beforeAll, and nothing else.
    const [row] = await t.db.rows<{ n: number | string }>(
      sql`SELECT (SELECT count(*) FROM signalements) + (SELECT count(*) FROM victimes) + (SELECT count(*) FROM presume_auteurs) AS n`,
    );
    expect(Number(row!.n)).toBe(1);
  });
});
