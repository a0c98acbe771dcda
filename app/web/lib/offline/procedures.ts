// The changes the outbox may keep (docs/decisions/0048-offline-store.md), with how the panel names them.
export const OUTBOX_PROCEDURES: Readonly<Record<string, string>> = {
  'signalements.create': "Création d'un signalement",
  'signalements.update': 'Modification du signalement',
  'signalements.updateLocalisation': 'Modification de la localisation du signalement',
  'auteurs.create': "Ajout d'un auteur au signalement",
  'victimes.create': "Ajout d'une victime au signalement",
  'sources.create': "Ajout d'une source au signalement",
  'notes.create': "Ajout d'une note au signalement",
};

export const isOutboxProcedure = (path: string): boolean => Object.hasOwn(OUTBOX_PROCEDURES, path);

/**
 * The changes that carry what only the need-to-know readers of an anonymous report may read: its sources,
 * and its notes, which follow the sources' rule (server/domains/notes/service.ts). On an anonymous report
 * they are never kept on the device, not even encrypted in the outbox: offline they wait in the form.
 */
export const ANONYMOUS_PROTECTED: Readonly<Record<string, string>> = {
  'sources.create':
    'Une source d’un signalement anonyme n’est jamais gardée sur l’appareil : enregistrez-la une fois la connexion rétablie.',
  'notes.create':
    'Une note d’un signalement anonyme n’est jamais gardée sur l’appareil : enregistrez-la une fois la connexion rétablie.',
};

/**
 * The key of the tRPC operation's context by which a screen says whether the report of a source or a note
 * is anonymous. Without it (false, stated), such a change is treated as one of an anonymous report.
 */
export const REPORT_ANONYMOUS = 'reportAnonymous';

/** The context a screen gives a source's or a note's creation (see REPORT_ANONYMOUS). */
export const anonymityContext = (anonymous: boolean) => ({ [REPORT_ANONYMOUS]: anonymous });

interface Waiting {
  procedure: string;
  input: unknown;
}

const field = (value: unknown, name: string): unknown =>
  value && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;

/** Whether a waiting change makes the report `code` anonymous (the switch turned on offline). */
const becomesAnonymous = (code: unknown, waiting: readonly Waiting[]): boolean =>
  waiting.some(
    ({ procedure, input }) =>
      procedure === 'signalements.update' &&
      field(input, 'code') === code &&
      field(field(input, 'patch'), 'isAnonyme') === true,
  );

/**
 * Whether this change may be kept in the outbox: one of the allow-list, and, for a source or a note, only
 * when the screen stated that its report is not anonymous and no waiting change makes it anonymous.
 */
export function mayKeepOnDevice(
  procedure: string,
  input: unknown,
  context: Readonly<Record<string, unknown>> | undefined,
  waiting: readonly Waiting[],
): boolean {
  if (!isOutboxProcedure(procedure)) return false;
  if (!Object.hasOwn(ANONYMOUS_PROTECTED, procedure)) return true;
  if (context?.[REPORT_ANONYMOUS] !== false) return false;
  return !becomesAnonymous(field(input, 'signalement'), waiting);
}

/** « Modification du signalement SIG-… » : the report's code when the input names one. */
export function describeChange(procedure: string, input: unknown): string {
  const label = OUTBOX_PROCEDURES[procedure] ?? procedure;
  const code =
    input && typeof input === 'object'
      ? ((input as Record<string, unknown>).code ?? (input as Record<string, unknown>).signalement)
      : undefined;
  return typeof code === 'string' ? `${label} ${code}` : label;
}
