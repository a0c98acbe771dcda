// The edit precondition of the REST door (docs/decisions/0047-edit-conflicts.md): the ETag a read sends, the
// If-Match a write may send back, and how both are documented.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { editConflictDtoSchema } from '#shared/dto/schemas';
import { ifMatchVersion, versionOfJson, versionTag } from '#server/http/etag';

/** The If-Match header of a write, as documented on each route that honours it. */
export const IF_MATCH_HEADER = {
  description:
    'Facultatif : l’ETag du signalement lu (W/"<version>"). Si le signalement a changé depuis, la modification est refusée (409) et rien n’est écrit ; sans cet en-tête, elle est appliquée comme avant.',
};
export const ETAG_HEADER = 'Version du signalement (W/"<version>"), à renvoyer dans If-Match.';
export const CONFLICT_RESPONSE = {
  description:
    'Le signalement a été modifié depuis la version indiquée par If-Match : sa version actuelle et, pour chaque champ envoyé, la valeur actuelle et la vôtre. Rien n’a été écrit.',
  schema: editConflictDtoSchema,
  contentType: 'application/json',
};

/** The version a write expects (its If-Match); undefined when it sets no precondition. */
export const expectedVersion = (request: FastifyRequest) => ifMatchVersion(request.headers['if-match']);

/** Tags an answer with the report's version, so that a later write can send it back. */
export const tagVersion = (reply: FastifyReply, version: number) => reply.header('etag', versionTag(version));

/** Tags a serialised report with its version, when the JSON carries one. */
export function tagJsonVersion(reply: FastifyReply, json: string) {
  const version = versionOfJson(json);
  if (version !== null) tagVersion(reply, version);
  return reply;
}
