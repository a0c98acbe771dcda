// The OpenAPI 3.1 document, generated from the operations the routes declare (operation.ts) and from the
// zod schemas they validate with: inputs as their input type, answers as their output type. Never written
// by hand (docs/decisions/0037-api-documents.md).
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ApiOperation } from './operation';
import { errorSchema } from './schemas';

export type JsonSchema = Record<string, unknown>;

export interface DocumentedRoute {
  method: string;
  url: string;
  operation: ApiOperation;
}

/** The routes under /api that declare their operation, in registration order. */
export function documentedRoutes(app: FastifyInstance): DocumentedRoute[] {
  const out: DocumentedRoute[] = [];
  for (const route of app.routeList) {
    const op = route.config.operation;
    if (op && isApiPath(route.url)) out.push({ method: route.method, url: route.url, operation: op });
  }
  return out;
}

export const isApiPath = (url: string) => url === '/api' || url.startsWith('/api/');

/** `/api/signalements/:code` → `/api/signalements/{code}`. */
export const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  // Refinements and transforms have no JSON Schema: the document states the shape, the route the rest.
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete out.$schema;
  return out;
}

export function operationId(method: string, url: string): string {
  const words = openApiPath(url)
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1));
  return method.toLowerCase() + words.join('');
}

const ACCESS_TEXT: Record<ApiOperation['access'], string> = {
  public: 'Accès public (sans session).',
  staff: 'Accès : personnel connecté (session complète).',
  admin: 'Accès : administrateurs.',
  twoFactorStep: 'Accès : toute session, même avant le second facteur.',
  partner: 'Accès : jeton d’API d’un partenaire seulement (jamais une session).',
};

const JSON_TYPES = ['application/ld+json', 'application/json'];
const PATCH_TYPES = ['application/merge-patch+json', 'application/json'];

function parameters(op: ApiOperation): JsonSchema[] {
  const out: JsonSchema[] = [];
  const add = (where: 'path' | 'query', schema: z.ZodType | undefined) => {
    if (!schema) return;
    const object = jsonSchema(schema, 'input');
    const required = new Set((object.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries((object.properties ?? {}) as Record<string, JsonSchema>)) {
      const isArray = property.type === 'array';
      const isObject = property.type === 'object';
      out.push({
        name: where === 'query' && isArray ? `${name}[]` : name,
        in: where,
        required: where === 'path' || required.has(name),
        ...(isObject ? { style: 'deepObject', explode: true } : {}),
        schema: property,
      });
    }
  };
  add('path', op.params);
  add('query', op.query);
  for (const [name, header] of Object.entries(op.headers ?? {})) {
    out.push({
      name,
      in: 'header',
      required: header.required ?? false,
      description: header.description,
      schema: { type: 'string' },
    });
  }
  if (op.idempotent) {
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Rejouer la même requête avec la même clé rend la première réponse sans rien recréer.',
      schema: { type: 'string', maxLength: 255 },
    });
  }
  return out;
}

function requestBody(method: string, op: ApiOperation): JsonSchema | undefined {
  if (op.bodyType) {
    return { required: true, content: { [op.bodyType]: { schema: { type: 'string', format: 'binary' } } } };
  }
  if (!op.body) return undefined;
  const schema = jsonSchema(op.body, 'input');
  const types = method === 'PATCH' ? PATCH_TYPES : JSON_TYPES;
  return { required: true, content: Object.fromEntries(types.map((type) => [type, { schema }])) };
}

function responses(op: ApiOperation): JsonSchema {
  const out: JsonSchema = {};
  for (const [status, response] of Object.entries(op.responses)) {
    const types = response.contentType
      ? [response.contentType]
      : op.resource
        ? JSON_TYPES
        : ['application/json'];
    out[status] = {
      description: response.description,
      ...(response.headers && {
        headers: Object.fromEntries(
          Object.entries(response.headers).map(([name, description]) => [
            name,
            { description, schema: { type: 'string' } },
          ]),
        ),
      }),
      ...(response.schema
        ? {
            content: Object.fromEntries(
              types.map((type) => [type, { schema: jsonSchema(response.schema!, 'output') }]),
            ),
          }
        : response.contentType
          ? { content: { [response.contentType]: { schema: { type: 'string', format: 'binary' } } } }
          : {}),
    };
  }
  out.default = {
    description: 'Erreur : statut HTTP et message en français (et les champs refusés, pour un 400).',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Erreur' } } },
  };
  return out;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: JsonSchema;
  paths: Record<string, Record<string, JsonSchema>>;
  components: JsonSchema;
  tags: JsonSchema[];
}

export function openApiDocument(routes: DocumentedRoute[]): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();
  for (const { method, url, operation: op } of routes) {
    const path = openApiPath(url);
    const tag = op.resource ?? url.split('/')[2] ?? 'api';
    tags.add(tag);
    const body = requestBody(method, op);
    (paths[path] ??= {})[method.toLowerCase()] = {
      operationId: operationId(method, url),
      summary: op.summary,
      description: ACCESS_TEXT[op.access],
      tags: [tag],
      'x-acces': op.access,
      security:
        op.access === 'public'
          ? []
          : op.access === 'partner'
            ? [{ jetonPartenaire: op.scope === undefined ? [] : [op.scope] }]
            : [{ session: [] }, ...(op.scope === undefined ? [] : [{ jetonPartenaire: [op.scope] }])],
      parameters: parameters(op),
      ...(body ? { requestBody: body } : {}),
      responses: responses(op),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Signalements — API',
      version: '1',
      description:
        'API REST (JSON-LD) du back-office des signalements. Documentation Hydra : /api/docs.jsonld ; page de référence : /api/docs.',
    },
    paths,
    components: {
      schemas: { Erreur: jsonSchema(errorSchema, 'output') },
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'session',
          description: 'Cookie de session obtenu par POST /api/login (puis le second facteur s’il est dû).',
        },
        jetonPartenaire: {
          type: 'http',
          scheme: 'bearer',
          description:
            'Jeton d’API d’un partenaire (Authorization: Bearer sig_…), créé par un administrateur (« Accès API ») : seules les opérations de sa portée (signalements:create, signalements:read, webhooks:manage) l’acceptent ; une création de signalement exige un Idempotency-Key.',
        },
      },
    },
    tags: [...tags].map((name) => ({ name })),
  };
}
