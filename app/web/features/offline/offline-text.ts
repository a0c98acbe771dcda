// The offline screens' French texts (docs/decisions/0048-offline-store.md).
export const OFFLINE_TEXT = {
  pending: (n: number) => (n === 1 ? '1 modification en attente' : `${n} modifications en attente`),
  panelTitle: 'Modifications en attente',
  panelDescription:
    "Ces modifications sont enregistrées sur cet appareil et envoyées dans l'ordre dès que la connexion revient.",
  waiting: "En attente d'envoi",
  refused: 'Refusée par le serveur',
  retry: 'Réessayer',
  discard: 'Abandonner',
  close: 'Fermer',
  discardTitle: 'Abandonner cette modification ?',
  discardDescription: "Elle ne sera jamais envoyée au serveur. Cette action n'est pas réversible.",
  created: (when: string) => `Enregistrée le ${when}`,
  banner: (when: string) => `Hors ligne — données du ${when}`,
  nothingCached: "Hors ligne — aucune donnée de cette page n'est enregistrée sur cet appareil.",
};
