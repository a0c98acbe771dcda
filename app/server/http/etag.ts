// A report's version as an HTTP entity tag (docs/decisions/0047-edit-conflicts.md): `GET` of one report sends
// `ETag: W/"<version>"`, and a write that sends it back in `If-Match` is refused with a 409 when the
// report changed since. Weak and strong spellings of the same version are the same tag here: the tag names
// the version of the report's fields, not the bytes of one representation.
import { HttpError } from '#server/errors';

export const IF_MATCH_INVALID =
  'En-tête If-Match invalide : renvoyez l\'ETag reçu avec le signalement, par exemple W/"3".';

export const versionTag = (version: number) => `W/"${version}"`;

/**
 * The version an If-Match header names; undefined without one or with `*` (any version: the write happens
 * as without a precondition). One tag only: a list, or a tag that is not a version, is a 400.
 */
export function ifMatchVersion(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const value = (Array.isArray(header) ? header.join(',') : header).trim();
  if (value === '*') return undefined;
  const match = /^(?:W\/)?"([1-9][0-9]{0,9})"$/.exec(value);
  const version = match ? Number(match[1]) : NaN;
  if (!Number.isSafeInteger(version) || version > 2_147_483_647) throw new HttpError(400, IF_MATCH_INVALID);
  return version;
}

/** The version of a serialised SignalementDto: its last member (loader.ts writes `version` last). */
export function versionOfJson(json: string): number | null {
  const match = /"version":([0-9]+)\}$/.exec(json);
  return match ? Number(match[1]) : null;
}
