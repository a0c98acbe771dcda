// The API's own documents (docs/decisions/0037-api-documents.md): public, since they describe the
// API's shape and never its data. Generated once, on first read, from the routes' declared operations.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { notFound } from '#server/errors';
import {
  API_DOCUMENTATION_REL,
  hydraClassesOf,
  hydraContext,
  hydraDocumentation,
  hydraEntrypoint,
  type HydraClass,
} from './hydra';
import { documentedRoutes, isApiPath, openApiDocument, type OpenApiDocument } from './openapi';
import { operation } from './operation';
import { referencePage } from './reference-page';

const JSON_LD = 'application/ld+json; charset=utf-8';
const jsonLd = z.object({ '@context': z.unknown() }).loose();

/**
 * The origin the client reached us at, as API Platform writes its IRIs: a Hydra client resolves the
 * documentation's address from the Link header, so it must be one it can fetch.
 */
const baseOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** Every /api answer points a Hydra client to the documentation, as API Platform does. */
export function registerApiDocumentationLink(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply) => {
    const url = request.routeOptions.url;
    if (url && isApiPath(url)) {
      reply.header('link', `<${baseOf(request)}/api/docs.jsonld>; rel="${API_DOCUMENTATION_REL}"`);
    }
  });
}

export function apiDocsRoutes(app: FastifyInstance) {
  let openApi: OpenApiDocument | undefined;
  let classes: HydraClass[] | undefined;
  let page: string | undefined;
  const documents = () => {
    const routes = documentedRoutes(app);
    openApi ??= openApiDocument(routes);
    classes ??= hydraClassesOf(routes);
    return { openApi, classes };
  };

  app.get(
    '/api',
    operation({
      summary: 'Point d’entrée Hydra : l’adresse de chaque collection.',
      access: 'public',
      responses: {
        200: {
          description: 'Le point d’entrée (JSON-LD).',
          schema: jsonLd,
          contentType: 'application/ld+json',
        },
      },
    }),
    async (_request, reply) => reply.type(JSON_LD).send(hydraEntrypoint(documents().classes)),
  );
  app.get(
    '/api/docs.jsonld',
    operation({
      summary: 'Documentation Hydra (hydra:ApiDocumentation) : classes, propriétés et opérations.',
      access: 'public',
      responses: {
        200: {
          description: 'La documentation (JSON-LD).',
          schema: jsonLd,
          contentType: 'application/ld+json',
        },
      },
    }),
    async (request, reply) =>
      reply.type(JSON_LD).send(hydraDocumentation(documents().classes, baseOf(request))),
  );
  app.get(
    '/api/contexts/:resource',
    operation({
      summary: 'Contexte JSON-LD d’une ressource.',
      access: 'public',
      params: z.object({ resource: z.string().max(64) }),
      responses: {
        200: { description: 'Le contexte (JSON-LD).', schema: jsonLd, contentType: 'application/ld+json' },
      },
    }),
    async (request, reply) => {
      const { resource } = z.object({ resource: z.string().max(64) }).parse(request.params);
      const context = hydraContext(documents().classes, resource, baseOf(request));
      if (!context) throw notFound('Contexte introuvable.');
      return reply.type(JSON_LD).send(context);
    },
  );
  app.get(
    '/api/docs.json',
    operation({
      summary: 'Document OpenAPI 3.1 de l’API.',
      access: 'public',
      responses: {
        200: { description: 'Le document OpenAPI.', schema: z.object({ openapi: z.string() }).loose() },
      },
    }),
    async () => documents().openApi,
  );
  app.get(
    '/api/docs',
    operation({
      summary: 'Page de référence de l’API (HTML).',
      access: 'public',
      responses: { 200: { description: 'La page de référence.', contentType: 'text/html' } },
    }),
    async (_request, reply) => {
      page ??= referencePage(documents().openApi);
      return reply.type('text/html; charset=utf-8').send(page);
    },
  );
}
