// The detail form's values, built from the report, and the merge-patch that saving sends: only the
// fields that differ from what was loaded (§4: the form is clean or dirty compared with loaded values).
import { OTHERS_CODE } from '#shared/constants';
import type { SignalementDto } from '#shared/dto/signalements';
import type { SignalementDetailForm, SignalementPatchInput } from '#shared/schemas/signalements';

/** Form values; an empty text or choice is '' in the inputs and null in the patch. */
export type DetailValues = SignalementDetailForm;

export function formValuesFrom(s: SignalementDto): DetailValues {
  return {
    description: s.description ?? '',
    isConfict: s.isConfict,
    isRecurrent: s.isRecurrent,
    isInternalResponsability: s.isInternalResponsability,
    niveau: s.niveau?.code ?? '',
    statut: s.statut?.code ?? '',
    resultat: s.resultat?.code ?? '',
    canalPrincipal: s.canalPrincipal?.code ?? '',
    autreCanalPrincipal: s.autreCanalPrincipal ?? '',
    subjects: s.subjects.map((x) => x.code),
    autreObject: s.autreObject ?? '',
    projects: s.projects.map((x) => x.code),
    actionProvisoires: [...s.actionProvisoires],
    preuves: [...s.preuves],
  };
}

const text = (v: string | null | undefined) => (v ?? '').trim();
const choice = (v: string | null | undefined) => (v ? v : null);
const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));
const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** What changed between the loaded values and the current ones, in the update call's shape. */
export function patchFrom(initial: DetailValues, current: DetailValues): SignalementPatchInput {
  const patch: SignalementPatchInput = {};
  if (text(initial.description) !== text(current.description))
    patch.description = text(current.description) || null;
  for (const key of ['isConfict', 'isRecurrent', 'isInternalResponsability'] as const) {
    if (initial[key] !== current[key]) patch[key] = current[key];
  }
  for (const key of ['niveau', 'statut', 'resultat', 'canalPrincipal'] as const) {
    if (choice(initial[key]) !== choice(current[key])) patch[key] = choice(current[key]);
  }
  if (!sameSet(initial.subjects, current.subjects)) patch.subjects = [...current.subjects];
  if (!sameSet(initial.projects, current.projects)) patch.projects = [...current.projects];
  for (const key of ['actionProvisoires', 'preuves'] as const) {
    if (!sameList(initial[key], current[key])) patch[key] = [...current[key]];
  }
  // An OTHERS description only means something while OTHERS is chosen: dropping OTHERS clears it.
  const autreObject = current.subjects.includes(OTHERS_CODE) ? text(current.autreObject) : '';
  if (text(initial.autreObject) !== autreObject) patch.autreObject = autreObject || null;
  const autreCanal = current.canalPrincipal === OTHERS_CODE ? text(current.autreCanalPrincipal) : '';
  if (text(initial.autreCanalPrincipal) !== autreCanal) patch.autreCanalPrincipal = autreCanal || null;
  return patch;
}

export const isPatchEmpty = (patch: SignalementPatchInput) => Object.keys(patch).length === 0;

/**
 * The form's values with a patch's put over them (a change to redo, redo.ts): the inverse of patchFrom for
 * the fields the form edits; the others (isAnonyme, lastActionAt) are left out.
 */
export function withPatch(values: DetailValues, patch: SignalementPatchInput): DetailValues {
  const next: Record<string, unknown> = { ...values };
  for (const [key, value] of Object.entries(patch)) {
    if (!Object.hasOwn(values, key) || value === undefined) continue;
    next[key] = value === null ? '' : Array.isArray(value) ? [...(value as unknown[])] : value;
  }
  return next as DetailValues;
}
