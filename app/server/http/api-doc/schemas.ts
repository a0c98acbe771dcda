// Shapes the REST facade answers whatever the operation: its errors and its JSON-LD collections.
import { z } from 'zod';

/** { status, message, violations? }: server/http/errors.ts. */
export const errorSchema = z.object({
  status: z.number().int(),
  message: z.string(),
  violations: z.array(z.object({ propertyPath: z.string(), message: z.string() })).optional(),
});

const viewSchema = z.object({
  '@id': z.string(),
  '@type': z.literal('PartialCollectionView'),
  first: z.string(),
  last: z.string().optional(),
  next: z.string().optional(),
  previous: z.string().optional(),
});

/** A JSON-LD collection (server/http/jsonld.ts `collection`), with the members' schema and any extra fields. */
export function collectionSchema<M extends z.ZodType, E extends z.ZodRawShape = Record<never, never>>(
  member: M,
  extra?: E,
) {
  return z.object({
    '@context': z.string(),
    '@id': z.string(),
    '@type': z.literal('Collection'),
    totalItems: z.number().int(),
    totalItemsExact: z.boolean().optional(),
    member: z.array(member),
    view: viewSchema.optional(),
    ...(extra ?? ({} as E)),
  });
}
