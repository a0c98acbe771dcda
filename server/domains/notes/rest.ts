// The REST door of the internal notes (docs/decisions/0029-internal-notes.md): the report's notes as a
// JSON-LD collection and a POST beside it; each note at /api/notes/{code} (merge-patch, DELETE).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { codeParamsSchema } from '#shared/schemas/common';
import { noteSchema } from '#shared/schemas/notes';
import { collection } from '#server/http/jsonld';
import * as service from './service';

export function notesRoutes(app: FastifyInstance) {
  const { ctx } = app;
  const user = (request: FastifyRequest) => request.auth!.user;
  const code = (request: FastifyRequest) => codeParamsSchema.parse(request.params).code;

  app.get('/api/signalements/:code/notes', async (request) => {
    const { notes, peutAjouter, masquees } = await service.listNotes(ctx, user(request), code(request));
    return { ...collection('NoteInterne', request.url, notes, notes.length), peutAjouter, masquees };
  });
  app.post('/api/signalements/:code/notes', async (request, reply) => {
    const input = noteSchema.parse(request.body ?? {});
    const note = await service.createNote(ctx, user(request), { signalement: code(request), ...input });
    return reply.code(201).header('location', note['@id']).send(note);
  });
  app.patch('/api/notes/:code', async (request) =>
    service.updateNote(ctx, user(request), code(request), noteSchema.parse(request.body ?? {})),
  );
  app.delete('/api/notes/:code', async (request, reply) => {
    await service.deleteNote(ctx, user(request), code(request));
    return reply.code(204).send();
  });
}
