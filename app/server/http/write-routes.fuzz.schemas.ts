// The bodies the write-route fuzzing (write-routes.fuzz.test.ts) sends, drawn from a route's zod schema
// (its leaves from write-routes.fuzz.generators.ts), and the field names the schemas know.
import fc from 'fast-check';
import type { z } from 'zod';
import {
  hostileValue,
  nearMiss,
  RAW_BODIES,
  validString,
  type Pools,
  type Target,
} from './write-routes.fuzz.generators';

export type ZodDef = { type: string } & Record<string, unknown>;
export const defOf = (schema: unknown): ZodDef => (schema as { _zod: { def: ZodDef } })._zod.def;

/** An arbitrary of inputs for a zod schema: leaves valid-ish, or (mixed mode) hostile one time in five. */
export function fromSchema(schema: unknown, target: Target, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const at = (key: string) => ({ ...target, key });
  const leaf = (valid: fc.Arbitrary<unknown>) =>
    target.valid
      ? valid
      : fc.oneof(
          { weight: 4, arbitrary: valid },
          { weight: 1, arbitrary: nearMiss(target) },
          { weight: 1, arbitrary: hostileValue },
        );
  if (depth > 6) return hostileValue;
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      const fields = Object.fromEntries(
        Object.entries(shape).map(([k, s]) => [k, fromSchema(s, at(k), depth + 1)]),
      );
      const object = fc.record(fields, { requiredKeys: [] });
      if (target.valid) return fc.oneof(fc.record(fields), object);
      const extra = fc.dictionary(
        fc.constantFrom('__proto__', 'constructor', 'prototype', 'champInconnu', 'x', '\ud800', 'a\u0000'),
        hostileValue,
        { maxKeys: 2 },
      );
      return fc.oneof(
        { weight: 3, arbitrary: fc.record(fields) },
        { weight: 3, arbitrary: object },
        // Through JSON, as a body would arrive: '__proto__' becomes an own key.
        {
          weight: 1,
          arbitrary: fc.tuple(object, extra).map(([o, e]) => ({
            ...(JSON.parse(JSON.stringify(o)) as object),
            ...(JSON.parse(JSON.stringify(e)) as object),
          })),
        },
        { weight: 1, arbitrary: hostileValue },
      );
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return fc.oneof(
        { weight: 6, arbitrary: fromSchema(def.innerType, target, depth) },
        { weight: 1, arbitrary: target.valid ? fc.constant(undefined) : fc.constantFrom(null, undefined) },
      );
    case 'pipe':
      return fromSchema(def.in, target, depth);
    case 'intersection': {
      const left = fromSchema(def.left, target, depth);
      const right = fromSchema(def.right, target, depth);
      return fc
        .tuple(left, right)
        .map(([l, r]) =>
          l && r && typeof l === 'object' && typeof r === 'object' && !Array.isArray(l) && !Array.isArray(r)
            ? { ...l, ...r }
            : l,
        );
    }
    case 'union':
      return fc.oneof(...(def.options as unknown[]).map((o) => fromSchema(o, target, depth)));
    case 'array':
      return leaf(
        fc.array(fromSchema(def.element, target, depth + 1), {
          minLength: 1,
          maxLength: target.valid ? 2 : 4,
        }),
      );
    case 'string':
      return leaf(validString(target));
    case 'number':
    case 'int':
      return leaf(
        target.key === 'id' && target.pools.mails.length
          ? fc.constantFrom(...target.pools.mails)
          : fc.integer({ min: -5, max: 1_000_000 }),
      );
    case 'boolean':
      return leaf(fc.boolean());
    case 'enum':
      return leaf(fc.constantFrom(...Object.values(def.entries as Record<string, string>)));
    case 'literal':
      return leaf(fc.constantFrom(...(def.values as unknown[])));
    default:
      // transform, any, unknown, record… : whatever a user may type.
      return leaf(fc.oneof(validString(target), fc.integer(), fc.boolean()));
  }
}

/**
 * Bodies of a route: from its schema when known, else objects over `knownFields`, every field name the
 * API knows.
 */
export function bodies(
  schema: z.ZodType | null | undefined,
  route: string,
  pools: Pools,
  knownFields: string[],
): fc.Arbitrary<unknown> {
  const generic = fc.dictionary(
    fc.constantFrom(...knownFields, '__proto__', 'constructor', 'prototype'),
    hostileValue,
    { maxKeys: 6 },
  );
  const target = { key: '', route, pools };
  const valid = schema ? fromSchema(schema, { ...target, valid: true }) : fc.constant(undefined);
  const mixed = schema ? fromSchema(schema, { ...target, valid: false }) : fc.constant(undefined);
  return fc.oneof(
    { weight: 4, arbitrary: valid },
    { weight: 4, arbitrary: mixed },
    {
      weight: schema === undefined ? 6 : 1,
      arbitrary: generic.map((o) => JSON.parse(JSON.stringify(o)) as unknown),
    },
    { weight: 1, arbitrary: hostileValue },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES).map((raw) => ({ raw })) },
  );
}

export function fieldNames(schema: unknown, into: Set<string>, depth = 0): Set<string> {
  if (depth > 6) return into;
  const def = defOf(schema);
  if (def.type === 'object') {
    for (const [k, s] of Object.entries(def.shape as Record<string, unknown>)) {
      into.add(k);
      fieldNames(s, into, depth + 1);
    }
  }
  for (const inner of [def.innerType, def.in, def.left, def.right, def.element])
    if (inner) fieldNames(inner, into, depth + 1);
  return into;
}
