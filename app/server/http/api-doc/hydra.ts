// The Hydra documents of the REST facade, shaped as API Platform writes them so that its own client
// (@api-platform/api-doc-parser) reads them: the entrypoint (/api), the `hydra:ApiDocumentation`
// (/api/docs.jsonld) and one JSON-LD context per resource (/api/contexts/{Resource}). Every context is
// inline: no client ever fetches a remote vocabulary to read them (docs/decisions/0037-api-documents.md).
import { type z } from 'zod';
import { hydraClasses } from '#shared/dto/schemas';
import { jsonSchema, openApiPath, type DocumentedRoute, type JsonSchema } from './openapi';
import type { ApiOperation } from './operation';

export const HYDRA = 'http://www.w3.org/ns/hydra/core#';
export const API_DOCUMENTATION_REL = `${HYDRA}apiDocumentation`;

const PREFIXES = {
  hydra: HYDRA,
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  xmls: 'http://www.w3.org/2001/XMLSchema#',
  owl: 'http://www.w3.org/2002/07/owl#',
  schema: 'https://schema.org/',
};

/** The Hydra terms a collection answer uses (server/http/jsonld.ts), for the resources' contexts. */
const COLLECTION_TERMS = {
  Collection: 'hydra:Collection',
  PartialCollectionView: 'hydra:PartialCollectionView',
  member: { '@id': 'hydra:member', '@type': '@id' },
  totalItems: 'hydra:totalItems',
  view: { '@id': 'hydra:view', '@type': '@id' },
  first: { '@id': 'hydra:first', '@type': '@id' },
  last: { '@id': 'hydra:last', '@type': '@id' },
  next: { '@id': 'hydra:next', '@type': '@id' },
  previous: { '@id': 'hydra:previous', '@type': '@id' },
  // Not Hydra's: false when totalItems is a lower bound (docs/decisions/0022).
  totalItemsExact: 'Collection/totalItemsExact',
};

/** The keys every collection answer may carry (server/http/jsonld.ts). */
const COLLECTION_KEYS = new Set(['@context', '@id', '@type', ...Object.keys(COLLECTION_TERMS)]);

export interface HydraProperty {
  name: string;
  /** 'xmls:string', 'xmls:dateTime'…, or '#Class' for a link to another resource. */
  range: string | null;
  link: boolean;
  readable: boolean;
  writeable: boolean;
  required: boolean;
}

export interface HydraClass {
  name: string;
  /**
   * Its collection's address when it has one of its own that a GET lists (not a report's sub-collection):
   * the entrypoint lists it. The others are classes of the documentation only.
   */
  collection: string | null;
  properties: HydraProperty[];
  /** Fields a collection answer of this class adds beside its members (peutAjouter, masquees…). */
  collectionFields: string[];
  operations: DocumentedRoute[];
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = current._zod.def as { type: string; innerType?: z.ZodType };
    if (
      ['optional', 'nullable', 'default', 'readonly', 'catch', 'prefault'].includes(def.type) &&
      def.innerType
    ) {
      current = def.innerType;
    } else return current;
  }
}

function rangeOf(schema: z.ZodType): { range: string | null; link: boolean } {
  const inner = unwrap(schema);
  const linked = hydraClasses.get(inner)?.hydraClass;
  if (linked) return { range: `#${linked}`, link: true };
  const def = inner._zod.def as { type: string; format?: string; check?: string; element?: z.ZodType };
  if (def.type === 'array' && def.element) {
    const element = rangeOf(def.element);
    return element.link ? element : { range: 'xmls:array', link: false };
  }
  if (def.type === 'string') {
    const format = (inner as z.ZodString).format;
    if (format === 'datetime') return { range: 'xmls:dateTime', link: false };
    if (format === 'date') return { range: 'xmls:date', link: false };
    return { range: 'xmls:string', link: false };
  }
  if (def.type === 'literal' || def.type === 'enum') return { range: 'xmls:string', link: false };
  if (def.type === 'boolean') return { range: 'xmls:boolean', link: false };
  if (def.type === 'number') {
    return { range: (inner as z.ZodNumber).isInt ? 'xmls:integer' : 'xmls:decimal', link: false };
  }
  return { range: null, link: false };
}

const JSON_RANGE: Record<string, string> = {
  string: 'xmls:string',
  integer: 'xmls:integer',
  number: 'xmls:decimal',
  boolean: 'xmls:boolean',
  array: 'xmls:array',
};

/** The item's read shape: an item GET's answer, a create's, or a collection's member. */
function readSchema(operations: DocumentedRoute[]): z.ZodObject | null {
  const pick = (schema: z.ZodType | undefined): z.ZodObject | null => {
    if (!schema) return null;
    let shape = unwrap(schema);
    // A door that answers two shapes (the staff's, and a partner token's: decision 0038) is of the class of
    // the first, the staff's; the partner's is a subset of it.
    if (shape._zod.def.type === 'union')
      shape = unwrap((shape as z.ZodUnion)._zod.def.options[0] as z.ZodType);
    return shape._zod.def.type === 'object' ? (shape as z.ZodObject) : null;
  };
  const item = operations.find((r) => r.method === 'GET' && !r.operation.collection);
  const created = operations.find((r) => r.method === 'POST' && r.operation.responses[201]?.schema);
  const list = operations.find((r) => r.method === 'GET' && r.operation.collection);
  const member = list?.operation.responses[200]?.schema;
  const memberShape = pick(member)?.shape.member as z.ZodArray | undefined;
  return (
    pick(item?.operation.responses[200]?.schema) ??
    pick(created?.operation.responses[201]?.schema) ??
    (memberShape ? pick(memberShape._zod.def.element as z.ZodType) : null)
  );
}

function writeShapes(operations: DocumentedRoute[]): {
  properties: Map<string, JsonSchema>;
  required: Set<string>;
} {
  const properties = new Map<string, JsonSchema>();
  const required = new Set<string>();
  for (const { method, operation } of operations) {
    if (!operation.body || !['POST', 'PUT', 'PATCH'].includes(method)) continue;
    const schema = jsonSchema(operation.body, 'input');
    const parts = [schema, ...((schema.allOf as JsonSchema[] | undefined) ?? [])];
    for (const part of parts) {
      for (const [name, property] of Object.entries((part.properties ?? {}) as Record<string, JsonSchema>)) {
        if (!properties.has(name)) properties.set(name, property);
      }
      if (method === 'POST' || method === 'PUT') {
        for (const name of (part.required as string[] | undefined) ?? []) required.add(name);
      }
    }
  }
  return { properties, required };
}

/** The resource classes, from the operations that declare them. */
export function hydraClassesOf(routes: DocumentedRoute[]): HydraClass[] {
  const byClass = new Map<string, DocumentedRoute[]>();
  for (const route of routes) {
    const name = route.operation.resource;
    if (name) byClass.set(name, [...(byClass.get(name) ?? []), route]);
  }
  const out: HydraClass[] = [];
  for (const [name, operations] of byClass) {
    const read = readSchema(operations);
    const write = writeShapes(operations);
    const properties = new Map<string, HydraProperty>();
    for (const [prop, schema] of Object.entries(read?.shape ?? {})) {
      if (prop.startsWith('@')) continue;
      properties.set(prop, {
        name: prop,
        ...rangeOf(schema as z.ZodType),
        readable: true,
        writeable: write.properties.has(prop),
        required: write.required.has(prop),
      });
    }
    for (const [prop, schema] of write.properties) {
      if (properties.has(prop)) continue;
      const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
      properties.set(prop, {
        name: prop,
        range: typeof type === 'string' ? (JSON_RANGE[type] ?? null) : null,
        link: false,
        readable: false,
        writeable: true,
        required: write.required.has(prop),
      });
    }
    // A collection of its own (not a report's sub-collection): the entrypoint lists it.
    const top = operations.find((r) => r.method === 'GET' && r.operation.collection && !r.url.includes(':'));
    const list = operations.find((r) => r.method === 'GET' && r.operation.collection)?.operation
      .responses[200];
    const listShape =
      list?.schema && unwrap(list.schema)._zod.def.type === 'object'
        ? (unwrap(list.schema) as z.ZodObject).shape
        : {};
    out.push({
      name,
      collection: top?.url ?? null,
      properties: [...properties.values()],
      collectionFields: Object.keys(listShape).filter((key) => !COLLECTION_KEYS.has(key)),
      operations,
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** `signalements` for /api/signalements, `mail_outbox_failed`…: the entrypoint's property naming a collection. */
const entrypointProperty = (collection: string) => collection.slice('/api/'.length).replaceAll('/', '_');

const vocab = (base: string) => `${base}/api/docs.jsonld#`;

function operationNode(route: DocumentedRoute, className: string): JsonSchema {
  const { method, operation: op } = route;
  const returns = op.collection && method === 'GET' ? 'hydra:Collection' : responseClass(op, className);
  const kind: Record<string, string> = {
    GET: 'schema:FindAction',
    POST: 'schema:CreateAction',
    PUT: 'schema:ReplaceAction',
    PATCH: 'schema:UpdateAction',
    DELETE: 'schema:DeleteAction',
  };
  return {
    '@type': ['hydra:Operation', kind[method] ?? 'schema:Action'],
    'hydra:method': method,
    'hydra:title': op.summary,
    'rdfs:label': op.summary,
    'hydra:description': `${method} ${openApiPath(route.url)}`,
    ...(op.body ? { expects: `#${className}` } : {}),
    returns,
  };
}

function responseClass(op: ApiOperation, className: string): string {
  const success = Object.keys(op.responses)
    .map(Number)
    .find((s) => s < 300);
  if (success === 204 || !op.responses[success ?? 200]?.schema) return 'owl:Nothing';
  return `#${className}`;
}

function propertyNode(className: string, p: HydraProperty): JsonSchema {
  return {
    '@type': 'hydra:SupportedProperty',
    'hydra:property': {
      '@id': `#${className}/${p.name}`,
      '@type': p.link ? 'hydra:Link' : 'rdf:Property',
      'rdfs:label': p.name,
      domain: `#${className}`,
      ...(p.range ? { range: p.range } : {}),
    },
    'hydra:title': p.name,
    'hydra:required': p.required,
    'hydra:readable': p.readable,
    'hydra:writeable': p.writeable,
  };
}

/** GET /api/docs.jsonld. */
export function hydraDocumentation(classes: HydraClass[], base: string): JsonSchema {
  const listed = classes.filter((c) => c.collection !== null);
  const entrypoint = {
    '@id': '#Entrypoint',
    '@type': 'hydra:Class',
    'hydra:title': 'Point d’entrée',
    'rdfs:label': 'Entrypoint',
    'hydra:supportedProperty': listed.map((c) => ({
      '@type': 'hydra:SupportedProperty',
      'hydra:property': {
        '@id': `#Entrypoint/${entrypointProperty(c.collection!)}`,
        '@type': 'hydra:Link',
        'rdfs:label': `La collection des ressources ${c.name}`,
        domain: '#Entrypoint',
        'rdfs:range': [
          { '@id': 'hydra:Collection' },
          {
            'owl:equivalentClass': {
              'owl:onProperty': { '@id': 'hydra:member' },
              'owl:allValuesFrom': { '@id': `#${c.name}` },
            },
          },
        ],
        'hydra:supportedOperation': c.operations
          .filter((r) => r.url === c.collection)
          .map((r) => operationNode(r, c.name)),
      },
      'hydra:title': `La collection des ressources ${c.name}`,
      'hydra:readable': true,
      'hydra:writeable': false,
    })),
    'hydra:supportedOperation': {
      '@type': 'hydra:Operation',
      'hydra:method': 'GET',
      'rdfs:label': 'Le point d’entrée de l’API.',
      returns: '#Entrypoint',
    },
  };
  return {
    '@context': {
      '@vocab': vocab(base),
      ...PREFIXES,
      domain: { '@id': 'rdfs:domain', '@type': '@id' },
      range: { '@id': 'rdfs:range', '@type': '@id' },
      subClassOf: { '@id': 'rdfs:subClassOf', '@type': '@id' },
      expects: { '@id': 'hydra:expects', '@type': '@id' },
      returns: { '@id': 'hydra:returns', '@type': '@id' },
    },
    '@id': '/api/docs.jsonld',
    '@type': 'hydra:ApiDocumentation',
    'hydra:title': 'Signalements — API',
    'hydra:description': 'API REST (JSON-LD) du back-office des signalements.',
    'hydra:entrypoint': '/api',
    'hydra:supportedClass': [
      ...classes.map((c) => ({
        '@id': `#${c.name}`,
        '@type': 'hydra:Class',
        'rdfs:label': c.name,
        'hydra:title': c.name,
        'hydra:supportedProperty': c.properties.map((p) => propertyNode(c.name, p)),
        'hydra:supportedOperation': c.operations
          .filter((r) => r.url !== c.collection)
          .map((r) => operationNode(r, c.name)),
      })),
      entrypoint,
    ],
  };
}

/** GET /api. */
export function hydraEntrypoint(classes: HydraClass[]): JsonSchema {
  const out: JsonSchema = { '@context': '/api/contexts/Entrypoint', '@id': '/api', '@type': 'Entrypoint' };
  for (const c of classes) if (c.collection) out[entrypointProperty(c.collection)] = c.collection;
  return out;
}

/** GET /api/contexts/{name}: the class's terms, or the entrypoint's; null for an unknown name. */
export function hydraContext(classes: HydraClass[], name: string, base: string): JsonSchema | null {
  const head = { '@vocab': vocab(base), hydra: HYDRA };
  if (name === 'Entrypoint') {
    const terms: JsonSchema = { ...head };
    for (const c of classes) {
      if (!c.collection) continue;
      const property = entrypointProperty(c.collection);
      terms[property] = { '@id': `Entrypoint/${property}`, '@type': '@id' };
    }
    return { '@context': terms };
  }
  const found = classes.find((c) => c.name === name);
  if (!found) return null;
  const terms: JsonSchema = { ...head, ...COLLECTION_TERMS };
  for (const p of found.properties) {
    terms[p.name] = p.link ? { '@id': `${found.name}/${p.name}`, '@type': '@id' } : `${found.name}/${p.name}`;
  }
  for (const field of found.collectionFields) terms[field] ??= `${found.name}/${field}`;
  return { '@context': terms };
}
