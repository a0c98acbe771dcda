// The readable reference of the API, rendered on the server from the OpenAPI document: plain HTML, no
// script and no style of its own (the Content-Security-Policy allows neither inline), nothing from a CDN.
import type { JsonSchema, OpenApiDocument } from './openapi';

const escape = (text: unknown) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const anchor = (text: string) => text.replace(/[^A-Za-z0-9]+/g, '-');

function typeOf(schema: JsonSchema | undefined): string {
  if (!schema) return '';
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
  if (type === 'array') return `${typeOf(schema.items as JsonSchema)}[]`;
  return typeof type === 'string' ? type : schema.anyOf ? 'plusieurs formes' : 'valeur';
}

const schemaBlock = (label: string, schema: unknown) =>
  `<details><summary>${escape(label)}</summary><pre>${escape(JSON.stringify(schema, null, 2))}</pre></details>`;

function operationSection(method: string, path: string, op: JsonSchema): string {
  const parameters = (op.parameters as JsonSchema[]) ?? [];
  const body = op.requestBody as { content: Record<string, { schema: unknown }> } | undefined;
  const responses = Object.entries(op.responses as Record<string, JsonSchema>);
  const out = [
    `<section id="${escape(op.operationId)}">`,
    `<h3><code>${escape(method.toUpperCase())} ${escape(path)}</code></h3>`,
    `<p>${escape(op.summary)} ${escape(op.description)}</p>`,
  ];
  if (parameters.length) {
    out.push(
      '<table><caption>Paramètres</caption><thead><tr><th scope="col">Nom</th><th scope="col">Emplacement</th><th scope="col">Obligatoire</th><th scope="col">Type</th></tr></thead><tbody>',
      ...parameters.map(
        (p) =>
          `<tr><td><code>${escape(p.name)}</code></td><td>${escape(p.in)}</td><td>${p.required ? 'oui' : 'non'}</td><td>${escape(typeOf(p.schema as JsonSchema))}</td></tr>`,
      ),
      '</tbody></table>',
    );
  }
  if (body) {
    const [type, content] = Object.entries(body.content)[0]!;
    out.push(`<h4>Corps de la requête</h4>`, schemaBlock(type, content.schema));
  }
  out.push('<h4>Réponses</h4><ul>');
  for (const [status, response] of responses) {
    const content = response.content as Record<string, { schema: unknown }> | undefined;
    const first = content ? Object.entries(content)[0] : undefined;
    out.push(
      `<li><strong>${escape(status === 'default' ? 'Erreur' : status)}</strong> — ${escape(response.description)}${
        first ? schemaBlock(first[0], first[1].schema) : ''
      }</li>`,
    );
  }
  out.push('</ul></section>');
  return out.join('\n');
}

export function referencePage(doc: OpenApiDocument): string {
  const byTag = new Map<string, Array<[string, string, JsonSchema]>>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = (op.tags as string[])[0]!;
      byTag.set(tag, [...(byTag.get(tag) ?? []), [method, path, op]]);
    }
  }
  const tags = [...byTag.keys()].sort((a, b) => a.localeCompare(b));
  return [
    '<!doctype html>',
    '<html lang="fr"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Référence de l’API — Signalements</title></head><body><main>',
    '<h1>Référence de l’API Signalements</h1>',
    `<p>${escape(doc.info.description)}</p>`,
    '<p>Documents lisibles par une machine : <a href="/api/docs.json">OpenAPI 3.1 (JSON)</a>, <a href="/api/docs.jsonld">documentation Hydra (JSON-LD)</a>, <a href="/api">point d’entrée Hydra</a>.</p>',
    '<h2>Authentification</h2>',
    '<p>Les opérations non publiques demandent le cookie de session obtenu par <code>POST /api/login</code> (puis le second facteur s’il est dû). Une écriture doit venir de l’application elle-même (en-têtes Sec-Fetch-Site ou Origin) ; les corps sont en JSON (<code>application/ld+json</code> ou <code>application/json</code>, <code>application/merge-patch+json</code> pour un PATCH).</p>',
    '<nav aria-label="Ressources"><h2>Ressources</h2><ul>',
    ...tags.map((tag) => `<li><a href="#${anchor(tag)}">${escape(tag)}</a></li>`),
    '</ul></nav>',
    ...tags.map((tag) =>
      [
        `<h2 id="${anchor(tag)}">${escape(tag)}</h2>`,
        ...byTag.get(tag)!.map(([method, path, op]) => operationSection(method, path, op)),
      ].join('\n'),
    ),
    '</main></body></html>',
  ].join('\n');
}
