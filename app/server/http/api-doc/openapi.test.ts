// The OpenAPI document (docs/decisions/0037-api-documents.md): every REST route is in it, each of its
// schemas compiles as JSON Schema 2020-12, and the test fixture checks the answers against it.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { operation } from './operation';
import { isApiPath, openApiPath, type JsonSchema, type OpenApiDocument } from './openapi';
import { documentAjv } from '#tests/helpers/answer-validation';

/** The REST routes the app registered that the document it serves does not describe. */
function undocumented(app: FastifyInstance, doc: OpenApiDocument): string[] {
  return app.routeList
    .filter((route) => isApiPath(route.url))
    .filter((route) => !doc.paths[openApiPath(route.url)]?.[route.method.toLowerCase()])
    .map((route) => `${route.method} ${route.url}`);
}

const docOf = async (app: FastifyInstance): Promise<OpenApiDocument> => {
  const res = await app.inject({ url: '/api/docs.json' });
  expect(res.statusCode).toBe(200);
  return res.json();
};

describe.each(await testEngines())('OpenAPI document on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => t?.close());

  it('describes every REST route the app registers, with its parameters, and nothing else', async () => {
    const doc = await docOf(t.app);
    expect(doc.openapi).toBe('3.1.0');
    const routes = t.app.routeList.filter((r) => isApiPath(r.url));
    expect(routes.length).toBeGreaterThan(60);
    expect(undocumented(t.app, doc)).toEqual([]);
    const operations = Object.values(doc.paths).flatMap((methods) => Object.values(methods));
    expect(operations).toHaveLength(routes.length);
    const ids = operations.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [path, methods] of Object.entries(doc.paths)) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const op of Object.values(methods)) {
        const inPath = (op.parameters as JsonSchema[]).filter((p) => p.in === 'path').map((p) => p.name);
        expect(inPath.sort(), `${path} ${String(op.operationId)}`).toEqual(names.sort());
        expect(op.summary, path).toMatch(/\S/);
      }
    }
  });

  it('publishes the schemas the routes validate with: inputs as they are sent, answers as they are sent', async () => {
    const doc = await docOf(t.app);
    const create = doc.paths['/api/signalements']!.post!;
    const body = (create.requestBody as { content: Record<string, { schema: JsonSchema }> }).content;
    const input = body['application/ld+json']!.schema;
    // The create schema's own fields and rules (shared/schemas/signalements.ts), on the input side.
    expect(input.required).toEqual(expect.arrayContaining(['signalementAt', 'partenaire', 'subjects']));
    expect((input.properties as Record<string, JsonSchema>).partenaire).toMatchObject({ type: 'string' });
    const answer = (create.responses as Record<string, { content: Record<string, { schema: JsonSchema }> }>)[
      '201'
    ]!.content['application/ld+json']!.schema;
    // Two shapes: the staff's report, then a partner token's (docs/decisions/0038).
    expect(answer.anyOf).toHaveLength(2);
    expect(create.security).toEqual([{ session: [] }, { jetonPartenaire: ['signalements:create'] }]);
    const staff = (answer.anyOf as JsonSchema[])[0]!;
    expect(staff.required).toEqual(expect.arrayContaining(['@id', 'code', 'partenaire', 'echeance']));
    expect(staff.additionalProperties).toBe(false);
    // A PATCH takes merge-patch; a public operation needs no session, the others the session cookie.
    const patch = doc.paths['/api/signalements/{code}']!.patch!;
    expect(Object.keys((patch.requestBody as { content: object }).content)).toContain(
      'application/merge-patch+json',
    );
    expect(doc.paths['/api/login']!.post!.security).toEqual([]);
    expect(patch.security).toEqual([{ session: [] }]);
    expect(doc.paths['/api/utilisateurs']!.get!['x-acces']).toBe('admin');
    // The list's filters are its query parameters, each with its values (the state filter among them).
    const listParams = doc.paths['/api/signalements']!.get!.parameters as JsonSchema[];
    const etat = listParams.find((p) => p.in === 'query' && p.name === 'etat');
    expect(etat?.schema).toMatchObject({ enum: ['ouvert', 'traite'] });
  });

  it('holds only valid JSON Schemas (2020-12)', async () => {
    const doc = await docOf(t.app);
    const ajv = documentAjv();
    const erreur = JSON.stringify((doc.components.schemas as Record<string, unknown>).Erreur);
    const schemas: unknown[] = [];
    const walk = (node: unknown, key?: string) => {
      if (!node || typeof node !== 'object') return;
      if (key === 'schema') schemas.push(node);
      else for (const [k, v] of Object.entries(node)) walk(v, k);
    };
    walk(doc.paths);
    expect(schemas.length).toBeGreaterThan(100);
    for (const schema of schemas) {
      const inline = JSON.stringify(schema).replaceAll('{"$ref":"#/components/schemas/Erreur"}', erreur);
      expect(() => ajv.compile(JSON.parse(inline) as JsonSchema)).not.toThrow();
    }
  });

  it('is served as a readable page, with no script and nothing from another site', async () => {
    const res = await t.app.inject({ url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.body).toContain('<h1>Référence de l’API Signalements</h1>');
    expect(res.body).toContain('<code>POST /api/signalements</code>');
    expect(res.body).not.toMatch(/<script|<style|style=|https?:\/\/(?!www\.w3\.org)/);
  });
});

describe('a route the document misses, and an answer off the document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(
      'sqlite',
      {},
      {
        beforeReady(app) {
          // A route whose answer strays from what it declares, as a drifted route would.
          app.get(
            '/api/test-derive',
            operation({
              summary: 'Essai.',
              access: 'public',
              responses: { 200: { description: 'Essai.', schema: z.object({ code: z.string() }) } },
            }),
            async () => ({ code: 42 }),
          );
          // A route registered without its declaration, as a new module might.
          app.get('/api/test-sans-declaration', { config: { public: true } }, async () => ({}));
        },
      },
    );
  });
  afterAll(async () => {
    // This suite's mismatch is on purpose: closing reports it, as it would fail any other suite.
    await expect(t.close()).rejects.toThrow(/GET \/api\/test-derive 200/);
  });

  it('finds a REST route registered without its declaration', async () => {
    expect(undocumented(t.app, await docOf(t.app))).toEqual(['GET /api/test-sans-declaration']);
  });

  it('fails an answer that does not match its operation, and passes the ones that do', async () => {
    const before = t.answers.checked;
    await t.user('admin@example.mg', 'ROLE_ADMIN');
    const cookie = await t.login('admin@example.mg');
    const list = await t.app.inject({ url: '/api/partenaires', headers: { cookie } });
    expect(list.statusCode).toBe(200);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/partenaires',
      headers: { cookie, ...SAME_ORIGIN },
      payload: {},
    });
    expect(refused.statusCode).toBe(400);
    expect(t.answers.checked).toBeGreaterThanOrEqual(before + 2);
    expect(t.answers.mismatches).toEqual([]);

    const drifted = await t.app.inject({ url: '/api/test-derive' });
    expect(drifted.statusCode).toBe(500);
    expect(t.answers.mismatches).toHaveLength(1);
    expect(t.answers.mismatches[0]).toContain('must be string');
  });
});
