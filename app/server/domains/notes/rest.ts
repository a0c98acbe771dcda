// The REST door of the internal notes (docs/decisions/0029-internal-notes.md): the report's notes as a
// JSON-LD collection and a POST beside it; each note at /api/notes/{code} (merge-patch, DELETE).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { codeParamsSchema } from '#shared/schemas/common';
import { noteSchema } from '#shared/schemas/notes';
import { z } from 'zod';
import { noteDtoSchema } from '#shared/dto/schemas';
import { operation } from '#server/http/api-doc/operation';
import { collectionSchema } from '#server/http/api-doc/schemas';
import { collection } from '#server/http/jsonld';
import { restIdempotent } from '../idempotency/doors';
import * as service from './service';

export function notesRoutes(app: FastifyInstance) {
  const { ctx } = app;
  const user = (request: FastifyRequest) => request.auth!.user;
  const code = (request: FastifyRequest) => codeParamsSchema.parse(request.params).code;

  app.get(
    '/api/signalements/:code/notes',
    operation({
      summary: 'Les notes internes d’un signalement, les plus anciennes d’abord.',
      resource: 'NoteInterne',
      collection: true,
      access: 'staff',
      params: codeParamsSchema,
      responses: {
        200: {
          description: 'Les notes que l’appelant peut lire, et le nombre de celles qui lui sont cachées.',
          schema: collectionSchema(noteDtoSchema, { peutAjouter: z.boolean(), masquees: z.number().int() }),
        },
      },
    }),
    async (request) => {
      const { notes, peutAjouter, masquees } = await service.listNotes(ctx, user(request), code(request));
      return { ...collection('NoteInterne', request.url, notes, notes.length), peutAjouter, masquees };
    },
  );
  app.post(
    '/api/signalements/:code/notes',
    operation({
      summary: 'Ajouter une note interne à un signalement.',
      resource: 'NoteInterne',
      collection: true,
      access: 'staff',
      params: codeParamsSchema,
      body: noteSchema,
      idempotent: true,
      responses: { 201: { description: 'La note créée.', schema: noteDtoSchema } },
    }),
    async (request, reply) => {
      const input = { signalement: code(request), ...noteSchema.parse(request.body ?? {}) };
      // A retry with its Idempotency-Key reads the note again under today's rights (decision 0020).
      const note = await restIdempotent(
        ctx,
        request,
        reply,
        input,
        () => service.createNote(ctx, user(request), input),
        (stored) => service.rereadNote(ctx, user(request), stored),
      );
      return reply.code(201).header('location', note['@id']).send(note);
    },
  );
  app.patch(
    '/api/notes/:code',
    operation({
      summary: 'Modifier une note interne (son auteur, dans le délai permis).',
      resource: 'NoteInterne',
      access: 'staff',
      params: codeParamsSchema,
      body: noteSchema,
      responses: { 200: { description: 'La note modifiée.', schema: noteDtoSchema } },
    }),
    async (request) =>
      service.updateNote(ctx, user(request), code(request), noteSchema.parse(request.body ?? {})),
  );
  app.delete(
    '/api/notes/:code',
    operation({
      summary: 'Supprimer une note interne (son auteur, dans le délai permis).',
      resource: 'NoteInterne',
      access: 'staff',
      params: codeParamsSchema,
      responses: { 204: { description: 'Note supprimée.' } },
    }),
    async (request, reply) => {
      await service.deleteNote(ctx, user(request), code(request));
      return reply.code(204).send();
    },
  );
}
