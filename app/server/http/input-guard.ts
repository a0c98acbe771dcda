// Bytes that no engine stores alike are refused at the boundary, the same on SQLite and PostgreSQL:
// PostgreSQL's text refuses NUL, and a lone UTF-16 surrogate cannot be written as UTF-8 (it would be
// silently replaced). Keys that reach Object.prototype when copied are refused too.
import { DomainError, MESSAGES } from '../errors';

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_DEPTH = 32;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isForbiddenKey = (key: string) => FORBIDDEN_KEYS.has(key);

/** A string a database stores faithfully: no NUL, well-formed UTF-16. */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

/** Throws a French 400 when a parsed value (JSON body, tRPC input, query, params) holds hostile parts. */
export function refuseHostileInput(value: unknown, depth = 0): void {
  if (typeof value === 'string') {
    if (!isStorableText(value)) throw new DomainError('invalid', MESSAGES.forbiddenCharacter);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (depth > MAX_DEPTH) throw new DomainError('invalid', MESSAGES.tooDeep);
  if (Array.isArray(value)) {
    for (const item of value) refuseHostileInput(item, depth + 1);
    return;
  }
  for (const key of Object.keys(value)) {
    if (isForbiddenKey(key)) throw new DomainError('invalid', MESSAGES.forbiddenKey);
    if (!isStorableText(key)) throw new DomainError('invalid', MESSAGES.forbiddenCharacter);
    refuseHostileInput((value as Record<string, unknown>)[key], depth + 1);
  }
}
