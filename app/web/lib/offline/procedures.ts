// The changes the outbox may keep (docs/decisions/0048-offline-store.md), with how the panel names them.
export const OUTBOX_PROCEDURES: Readonly<Record<string, string>> = {
  'signalements.create': "Création d'un signalement",
  'signalements.update': 'Modification du signalement',
  'auteurs.create': "Ajout d'un auteur au signalement",
  'victimes.create': "Ajout d'une victime au signalement",
  'sources.create': "Ajout d'une source au signalement",
  'notes.create': "Ajout d'une note au signalement",
};

export const isOutboxProcedure = (path: string): boolean => Object.hasOwn(OUTBOX_PROCEDURES, path);

/** « Modification du signalement SIG-… » : the report's code when the input names one. */
export function describeChange(procedure: string, input: unknown): string {
  const label = OUTBOX_PROCEDURES[procedure] ?? procedure;
  const code =
    input && typeof input === 'object'
      ? ((input as Record<string, unknown>).code ?? (input as Record<string, unknown>).signalement)
      : undefined;
  return typeof code === 'string' ? `${label} ${code}` : label;
}
