// Every JSON answer of a documented REST operation is checked, in every server test that builds the app
// with createTestApp, against the OpenAPI document the app serves: the schema of that operation for that
// status (an error status: the document's error shape). An answer the document does not describe fails the
// test: the request gets a 500, and the suite fails when its app closes (docs/decisions/0037-api-documents.md).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import {
  documentedRoutes,
  openApiDocument,
  openApiPath,
  type JsonSchema,
  type OpenApiDocument,
} from '#server/http/api-doc/openapi';

// ajv-formats is CommonJS: its default export is the module object under some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

/**
 * An Ajv for the OpenAPI document's JSON Schemas (2020-12), with the formats the document uses (date-time,
 * binary…): without them Ajv prints « unknown format … ignored » for each schema and checks none.
 */
export function documentAjv(options: { allErrors?: boolean } = {}): Ajv2020 {
  const instance = new Ajv2020({ strict: false, ...options });
  addFormats(instance);
  return instance;
}

const ajv = documentAjv({ allErrors: true });
const compiled = new Map<string, ValidateFunction>();

function resolveRefs(schema: unknown, doc: OpenApiDocument): unknown {
  if (Array.isArray(schema)) return schema.map((s) => resolveRefs(s, doc));
  if (schema === null || typeof schema !== 'object') return schema;
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    const name = ref.slice('#/components/schemas/'.length);
    return (doc.components.schemas as Record<string, unknown>)[name];
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, resolveRefs(v, doc)]));
}

/** The schema an answer must match, null when the operation documents no body for it; a string: why none. */
export function answerSchema(
  doc: OpenApiDocument,
  method: string,
  url: string,
  status: number,
): JsonSchema | null | string {
  const op = doc.paths[openApiPath(url)]?.[method.toLowerCase()];
  if (!op) return `${method} ${url} n'est pas dans le document`;
  const responses = op.responses as Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
  const response = responses[String(status)] ?? (status >= 400 ? responses.default : undefined);
  if (!response) return `${method} ${url} : le statut ${status} n'est pas documenté`;
  const content = response.content ? Object.values(response.content)[0] : undefined;
  return content ? (resolveRefs(content.schema, doc) as JsonSchema) : null;
}

export interface AnswerValidation {
  /** What answered outside the document, one line per answer. */
  mismatches: string[];
  /** How many JSON answers were checked. */
  checked: number;
}

export function validateAnswers(app: FastifyInstance): AnswerValidation {
  const state: AnswerValidation = { mismatches: [], checked: 0 };
  let doc: OpenApiDocument | undefined;
  app.addHook('onSend', async (request, reply, payload) => {
    const route = request.routeOptions;
    if (!route.url || !route.config.operation || typeof payload !== 'string') return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    if (!/^application\/(?:ld\+)?json/.test(type)) return payload;
    doc ??= openApiDocument(documentedRoutes(app));
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const schema = answerSchema(doc, method, route.url, reply.statusCode);
    let problem: string | null = typeof schema === 'string' ? schema : null;
    if (schema !== null && typeof schema === 'object') {
      const key = `${method} ${route.url} ${reply.statusCode}`;
      let validate = compiled.get(key);
      if (!validate) {
        validate = ajv.compile(schema);
        compiled.set(key, validate);
      }
      state.checked += 1;
      if (!validate(JSON.parse(payload))) {
        problem = `${key} : ${ajv.errorsText(validate.errors)} — ${payload.slice(0, 500)}`;
      }
    }
    if (problem === null) return payload;
    state.mismatches.push(problem);
    // Only once: the 500 this causes is itself an answer of the document's error shape.
    if (reply.statusCode !== 500) throw new Error(`Réponse hors du document OpenAPI : ${problem}`);
    return payload;
  });
  return state;
}
