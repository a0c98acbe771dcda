// The offline screens' French texts (docs/decisions/0048-offline-store.md).
import { formatNumber } from '#web/lib/format';

/** French plural: 0 and 1 take the singular (Intl's « one » for fr). */
const one = (n: number) => new Intl.PluralRules('fr-FR').select(n) === 'one';

export const OFFLINE_TEXT = {
  pending: (n: number) =>
    one(n) ? `${formatNumber(n)} modification en attente` : `${formatNumber(n)} modifications en attente`,
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
  conflictHelp:
    'Ouvrez le signalement pour refaire la modification sur sa version actuelle : vos valeurs y sont reprises, à vérifier puis enregistrer.',
  openReport: 'Ouvrir le signalement',
  /** The log-out confirmation, when changes wait: they leave the device with the session. */
  lostAtLogout: (n: number) =>
    one(n)
      ? `${formatNumber(n)} modification en attente n’est pas encore envoyée : elle sera perdue si vous vous déconnectez.`
      : `${formatNumber(n)} modifications en attente ne sont pas encore envoyées : elles seront perdues si vous vous déconnectez.`,
  reconnectFirst: (n: number) =>
    `Annulez et attendez le retour de la connexion pour ${one(n) ? 'l’envoyer' : 'les envoyer'}.`,
  /** The log-in page, after a session that ended with changes still waiting (wiped with the store). */
  lostAtSessionEnd: (n: number) =>
    one(n)
      ? `${formatNumber(n)} modification en attente n’a pas pu être envoyée : votre session a pris fin et elle a été effacée de cet appareil. Refaites-la après vous être reconnecté.`
      : `${formatNumber(n)} modifications en attente n’ont pas pu être envoyées : votre session a pris fin et elles ont été effacées de cet appareil. Refaites-les après vous être reconnecté.`,
  nothingCached: "Hors ligne — aucune donnée de cette page n'est enregistrée sur cet appareil.",
};
