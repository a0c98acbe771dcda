// Zod's own messages ("Invalid input: expected object, received array", "Too big: …") reach the
// user whenever a schema does not name its own: a body of the wrong shape, a field without a custom
// message. This installs French defaults in the style of the specification's messages, for the
// server and the forms alike. A message written on a schema still wins (zod asks the schema first).
// Imported for its effect by every module of shared/schemas.
import { config, type core } from 'zod';

const EXPECTED: Partial<Record<string, string>> = {
  string: 'Texte attendu.',
  number: 'Nombre attendu.',
  int: 'Nombre entier attendu.',
  bigint: 'Nombre entier attendu.',
  boolean: 'Valeur true ou false attendue.',
  array: 'Liste attendue.',
  object: 'Objet attendu.',
  record: 'Objet attendu.',
  date: 'Date invalide.',
  null: 'Valeur null attendue.',
};

const UNIT: Partial<Record<string, string>> = {
  string: 'caractères',
  array: 'éléments',
  set: 'éléments',
  file: 'octets',
};

function tooBig(issue: core.$ZodIssueTooBig): string {
  const unit = UNIT[issue.origin];
  const max = issue.maximum.toString();
  if (unit) return issue.exact ? `Exactement ${max} ${unit}.` : `Au plus ${max} ${unit}.`;
  if (issue.origin === 'date') return 'Date trop tardive.';
  return issue.inclusive === false
    ? `La valeur doit être inférieure à ${max}.`
    : `La valeur doit être au plus ${max}.`;
}

function tooSmall(issue: core.$ZodIssueTooSmall): string {
  const unit = UNIT[issue.origin];
  const min = issue.minimum.toString();
  if (unit) {
    if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'Valeur obligatoire.';
    return issue.exact ? `Exactement ${min} ${unit}.` : `Au moins ${min} ${unit}.`;
  }
  if (issue.origin === 'date') return 'Date trop ancienne.';
  return issue.inclusive === false
    ? `La valeur doit être supérieure à ${min}.`
    : `La valeur doit être au moins ${min}.`;
}

/** French text for an issue that its schema left without a message. */
export function frenchMessage(issue: core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? 'Valeur obligatoire.'
        : (EXPECTED[issue.expected] ?? 'Valeur invalide.');
    case 'too_big':
      return tooBig(issue as unknown as core.$ZodIssueTooBig);
    case 'too_small':
      return tooSmall(issue as unknown as core.$ZodIssueTooSmall);
    case 'invalid_format':
      return issue.format === 'email' ? 'Veuillez saisir une adresse email valide.' : 'Format invalide.';
    case 'unrecognized_keys':
      return `Champ inconnu : ${issue.keys.join(', ')}.`;
    case 'invalid_value':
      return 'Valeur non autorisée.';
    case 'invalid_key':
      return 'Nom de champ invalide.';
    default:
      return 'Valeur invalide.';
  }
}

config({ localeError: frenchMessage });
