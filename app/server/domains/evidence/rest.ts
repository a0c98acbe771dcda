// The REST door of the evidence files (docs/decisions/0033-evidence-files.md). Upload and download are binary,
// so they exist on REST only: the upload's body is the file itself (application/octet-stream, streamed, its
// name in the percent-encoded `X-Nom-Fichier` header), the download streams the decrypted content as an
// attachment. The list (a JSON-LD collection) and the deletion have a tRPC twin (router.ts).
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { codeParamsSchema } from '#shared/schemas/common';
import { evidenceNameSchema } from '#shared/schemas/evidence';
import { HttpError } from '#server/errors';
import { evidenceDtoSchema, evidenceLimitsSchema } from '#shared/dto/schemas';
import { operation } from '#server/http/api-doc/operation';
import { collectionSchema } from '#server/http/api-doc/schemas';
import { collection } from '#server/http/jsonld';
import { z } from 'zod';
import { restIdempotent } from '../idempotency/doors';
import * as service from './service';
import { rereadEvidence, uploadEvidence } from './upload';

export const NAME_HEADER = 'x-nom-fichier';
const NAME_MISSING =
  'Nom du fichier manquant ou illisible : envoyez-le dans l’en-tête X-Nom-Fichier, encodé en UTF-8 (pourcentage).';

function fileName(request: FastifyRequest): string {
  const header = request.headers[NAME_HEADER];
  if (typeof header !== 'string') throw new HttpError(400, NAME_MISSING);
  let decoded: string;
  try {
    decoded = decodeURIComponent(header);
  } catch {
    throw new HttpError(400, NAME_MISSING);
  }
  return evidenceNameSchema.parse(decoded);
}

function declaredLength(request: FastifyRequest): number | undefined {
  const header = request.headers['content-length'];
  return header !== undefined && /^\d{1,15}$/.test(header) ? Number(header) : undefined;
}

/** `attachment` with the name twice: ASCII for old clients, RFC 5987's UTF-8 form for the others. */
export function attachmentHeader(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%;]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export function evidenceRoutes(app: FastifyInstance) {
  const { ctx } = app;
  const user = (request: FastifyRequest) => request.auth!.user;
  const code = (request: FastifyRequest) => codeParamsSchema.parse(request.params).code;

  app.get(
    '/api/signalements/:code/pieces-jointes',
    operation({
      summary: 'Les pièces jointes d’un signalement, les plus récentes d’abord.',
      resource: 'PieceJointe',
      collection: true,
      access: 'staff',
      params: codeParamsSchema,
      responses: {
        200: {
          description:
            'Les pièces jointes que l’appelant peut voir, et le nombre de celles qui lui sont cachées.',
          schema: collectionSchema(evidenceDtoSchema, {
            peutAjouter: z.boolean(),
            masquees: z.number().int(),
            limites: evidenceLimitsSchema,
          }),
        },
      },
    }),
    async (request) => {
      const list = await service.listEvidence(ctx, user(request), code(request));
      return {
        ...collection('PieceJointe', request.url, list.piecesJointes, list.piecesJointes.length),
        peutAjouter: list.peutAjouter,
        masquees: list.masquees,
        limites: list.limites,
      };
    },
  );

  // The body is left unread by Fastify (no parser consumes it): the handler streams it into encrypted blocks.
  void app.register(async (scope) => {
    scope.addContentTypeParser('application/octet-stream', (_request, _payload, done) =>
      done(null, undefined),
    );
    scope.post(
      '/api/signalements/:code/pieces-jointes',
      operation(
        {
          summary: 'Joindre un fichier à un signalement (le fichier tel quel, son nom dans X-Nom-Fichier).',
          resource: 'PieceJointe',
          collection: true,
          access: 'staff',
          params: codeParamsSchema,
          bodyType: 'application/octet-stream',
          headers: {
            'X-Nom-Fichier': {
              description: 'Nom du fichier, encodé en UTF-8 (pourcentage).',
              required: true,
            },
          },
          idempotent: true,
          responses: { 201: { description: 'La pièce jointe enregistrée.', schema: evidenceDtoSchema } },
        },
        { binaryBody: true },
      ),
      async (request, reply: FastifyReply) => {
        const signalement = code(request);
        try {
          const nom = fileName(request);
          const dto = await uploadEvidence(
            ctx,
            user(request),
            { signalement, nom, body: request.raw, declaredLength: declaredLength(request) },
            // A retry with its Idempotency-Key answers the first upload and keeps nothing of its own (0020).
            (fingerprint, commit) =>
              restIdempotent(ctx, request, reply, fingerprint, commit, (stored) =>
                rereadEvidence(ctx, user(request), stored),
              ),
          );
          return reply.code(201).header('location', dto['@id']).send(dto);
        } catch (error) {
          // Refused before the whole body arrived: the rest is not read, the connection closes after the answer.
          if (!request.raw.complete) reply.header('connection', 'close');
          throw error;
        }
      },
    );
  });

  app.get(
    '/api/pieces-jointes/:code/contenu',
    operation(
      {
        summary: 'Télécharger le contenu d’une pièce jointe (toujours en pièce jointe).',
        resource: 'PieceJointe',
        access: 'staff',
        params: codeParamsSchema,
        responses: { 200: { description: 'Le fichier.', contentType: 'application/octet-stream' } },
      },
      {},
      { compress: false },
    ),
    async (request, reply) => {
      const file = await service.downloadEvidence(ctx, user(request), code(request));
      return reply
        .header('content-type', file.type)
        .header('content-length', String(file.taille))
        .header('content-disposition', attachmentHeader(file.nom))
        .header('x-content-type-options', 'nosniff')
        .send(Readable.from(file.content));
    },
  );

  app.delete(
    '/api/pieces-jointes/:code',
    operation({
      summary: 'Supprimer une pièce jointe (son auteur dans le délai permis, ou un administrateur).',
      resource: 'PieceJointe',
      access: 'staff',
      params: codeParamsSchema,
      responses: { 204: { description: 'Pièce jointe supprimée.' } },
    }),
    async (request, reply) => {
      await service.deleteEvidence(ctx, user(request), code(request));
      return reply.code(204).send();
    },
  );
}
