// The Hydra documents (docs/decisions/0037-api-documents.md), read by API Platform's own client over a
// real socket: it finds the entrypoint, follows the Link header to /api/docs.jsonld and lists every
// resource with its fields, fetching nothing but this server. Every context an answer names resolves and
// defines the answer's terms.
import type { AddressInfo } from 'node:net';
import { parseHydraDocumentation } from '@api-platform/api-doc-parser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import * as dto from '#shared/dto/schemas';
import { testEngines } from '#tests/helpers/db';
import { bearer, createToken, registerPartnerEndpoint } from '#tests/helpers/jetons-api';
import { createReport } from '#tests/helpers/signalements';
import { serverSuite } from '#tests/helpers/suite';
import { collectionSchema } from './schemas';

/** Each resource the entrypoint lists, and the schema of what it answers (its readable fields). */
const RESOURCES: Record<string, z.ZodObject> = {
  canals: dto.canalDtoSchema,
  communes: dto.communeDtoSchema,
  delais_traitement: dto.delaiTraitementDtoSchema,
  districts: dto.districtDtoSchema,
  mail_outbox_failed: dto.failedMailDtoSchema,
  niveaux: dto.niveauDtoSchema,
  partenaires: dto.partenaireDtoSchema,
  projects: dto.projectDtoSchema,
  regions: dto.regionDtoSchema,
  resultats: dto.resultatDtoSchema,
  signalements: dto.signalementDtoSchema,
  statuts: dto.statutDtoSchema,
  subjects: dto.subjectDtoSchema,
  utilisateur_roles: dto.utilisateurRoleDtoSchema,
  utilisateurs: dto.utilisateurDtoSchema,
  webhooks: dto.pointDeReceptionDtoSchema,
};
const fieldsOf = (schema: z.ZodObject) => Object.keys(schema.shape).filter((k) => !k.startsWith('@'));

const LINK =
  /^<(http:\/\/127\.0\.0\.1:\d+\/api\/docs\.jsonld)>; rel="http:\/\/www\.w3\.org\/ns\/hydra\/core#apiDocumentation"$/;

describe.each(await testEngines())('Hydra documentation on %s', (engine) => {
  const { app: t, admin } = serverSuite(engine);
  let base: string;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => vi.restoreAllMocks());

  it('is read by @api-platform/api-doc-parser, which finds every resource with its fields, offline', async () => {
    const fetched: string[] = [];
    const realFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      fetched.push(input instanceof Request ? input.url : String(input));
      return realFetch(input, init);
    });
    const { api, status } = await parseHydraDocumentation(`${base}/api`).finally(() => spy.mockRestore());
    expect(status).toBe(200);
    expect(api.title).toBe('Signalements — API');
    // Nothing but this server: every context is inline or served here.
    expect(fetched.length).toBeGreaterThanOrEqual(3);
    for (const url of fetched) expect(url.startsWith(`${base}/api`), url).toBe(true);

    const resources = api.resources ?? [];
    expect(resources.map((r) => r.name).sort()).toEqual(
      Object.keys(RESOURCES)
        .map((n) => n.replaceAll('_failed', '/failed'))
        .sort(),
    );
    for (const resource of resources) {
      const schema = RESOURCES[resource.name.replaceAll('/', '_')]!;
      expect(resource.readableFields?.map((f) => f.name).sort(), resource.name).toEqual(
        fieldsOf(schema).sort(),
      );
    }

    const signalement = resources.find((r) => r.name === 'signalements')!;
    const field = (name: string) => signalement.fields!.find((f) => f.name === name)!;
    expect(field('signalementAt').type).toBe('dateTime');
    expect(field('isAnonyme').type).toBe('boolean');
    expect(field('echeance').type).toBe('date');
    // A reference to another listed resource is resolved to it.
    expect(field('partenaire').reference).toMatchObject({ name: 'partenaires' });
    expect(field('subjects').reference).toMatchObject({ name: 'subjects' });
    // Writable and required come from the create and patch schemas.
    expect(field('partenaire')).toMatchObject({ required: true });
    expect(signalement.writableFields!.map((f) => f.name)).toEqual(
      expect.arrayContaining(['partenaire', 'subjects', 'signalementAt', 'description']),
    );
    expect(signalement.writableFields!.map((f) => f.name)).not.toContain('canEdit');
    expect(signalement.operations!.map((o) => `${o.type} ${o.method}`).sort()).toEqual([
      'create POST',
      'edit PATCH',
      'list GET',
      'show GET',
    ]);
    const partenaires = resources.find((r) => r.name === 'partenaires')!;
    expect(partenaires.fields!.find((f) => f.name === 'designation')).toMatchObject({
      required: true,
      type: 'string',
    });
    expect(partenaires.operations!.map((o) => o.type).sort()).toEqual([
      'create',
      'delete',
      'edit',
      'list',
      'show',
    ]);
  });

  it('documents the resources the entrypoint cannot list (a report’s people, notes, files…) as classes', async () => {
    const res = await t.app.inject({ url: '/api/docs.jsonld' });
    expect(res.headers['content-type']).toMatch(/^application\/ld\+json/);
    const doc = res.json();
    expect(doc['@type']).toBe('hydra:ApiDocumentation');
    expect(JSON.stringify(doc['@context'])).not.toMatch(/"https?:\/\/[^"]*\.jsonld"/);
    const classes = new Map<string, { 'hydra:supportedProperty': Array<Record<string, unknown>> }>(
      doc['hydra:supportedClass'].map((c: { '@id': string }) => [c['@id'], c]),
    );
    for (const [name, schema] of [
      ['PresumeAuteur', dto.auteurDtoSchema],
      ['Source', dto.sourceDtoSchema],
      ['Victime', dto.victimeDtoSchema],
      ['NoteInterne', dto.noteDtoSchema],
      ['PieceJointe', dto.evidenceDtoSchema],
      ['Assignation', dto.assignationDtoSchema],
      ['Historique', dto.historiqueEntryDtoSchema],
      ['Preferences', dto.preferencesDtoSchema],
    ] as const) {
      const found = classes.get(`#${name}`);
      expect(found, name).toBeDefined();
      const properties = found!['hydra:supportedProperty'].map((p) => p['hydra:title']);
      expect(properties.sort(), name).toEqual(fieldsOf(schema as z.ZodObject).sort());
    }
  });

  it('puts the Link header on every /api answer, refusals included, and on no other', async () => {
    for (const [url, status] of [
      ['/api', 200],
      ['/api/health', 200],
      ['/api/signalements', 401],
      ['/api/docs.json', 200],
    ] as const) {
      const res = await fetch(`${base}${url}`);
      expect(res.status, url).toBe(status);
      expect(res.headers.get('link'), url).toMatch(LINK);
    }
    expect((await fetch(`${base}/admin`, { redirect: 'manual' })).headers.get('link')).toBeNull();
  });

  it('serves the context every answer names, defining each of its terms', async () => {
    const report = await createReport(t, admin.cookie);
    const entrypoint = (await t.app.inject({ url: '/api' })).json();
    const urls = [
      ...Object.entries(entrypoint)
        .filter(([key]) => !key.startsWith('@'))
        .map(([, url]) => url as string),
      `/api/signalements/${report}/notes`,
      `/api/signalements/${report}/pieces-jointes`,
      `/api/signalements/${report}/historique`,
      `/api/signalements/${report}/assignes`,
    ];
    // The partners' own collection answers a partner's token only (docs/decisions/0051): one endpoint in it.
    const token = (await createToken(t, admin.cookie, { partenaire: 'IVY', scopes: ['webhooks:manage'] }))
      .secret;
    await registerPartnerEndpoint(t, token);
    const contexts = new Set<string>();
    for (const url of urls) {
      const res = await t.app.inject({
        url,
        headers: url === '/api/webhooks' ? bearer(token) : { cookie: admin.cookie },
      });
      expect(res.statusCode, url).toBe(200);
      const answer = res.json();
      collectionSchema(dto.refDtoSchema.partial().loose()).parse(answer);
      const context = await t.app.inject({ url: answer['@context'] });
      expect(context.statusCode, answer['@context']).toBe(200);
      expect(context.headers['content-type']).toMatch(/^application\/ld\+json/);
      const terms = context.json()['@context'];
      const keys = [...Object.keys(answer), ...answer.member.flatMap((m: object) => Object.keys(m))];
      for (const key of new Set(keys)) {
        if (!key.startsWith('@')) expect(terms, `${url}: ${key}`).toHaveProperty([key]);
      }
      contexts.add(answer['@context']);
    }
    expect(contexts.size).toBeGreaterThanOrEqual(18);
    const unknown = await t.app.inject({ url: '/api/contexts/Inconnu' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ status: 404, message: 'Contexte introuvable.' });
  });
});
