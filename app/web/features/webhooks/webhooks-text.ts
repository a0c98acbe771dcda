// The « Webhooks » screen's words (docs/decisions/0039-signed-webhooks.md).
import { formatNumber } from '#web/lib/format';

export const WEBHOOKS_TEXT = {
  title: 'Webhooks',
  subtitle:
    'Les partenaires reçoivent, signé, chaque changement de statut, de résultat ou de niveau de leurs signalements.',
  newEndpoint: 'Nouveau point de réception',
  endpoints: 'Points de réception',
  endpointsEmpty: 'Aucun point de réception enregistré.',
  deliveries: 'Livraisons',
  deliveriesEmpty: 'Aucune livraison.',
  stateFilter: 'État des livraisons',
  allStates: 'Tous les états',
  partner: 'Partenaire',
  url: 'Adresse (URL)',
  urlHint: 'HTTPS obligatoire ; HTTP accepté seulement vers la machine locale (127.0.0.1, [::1]).',
  createdAt: 'Créé le',
  state: 'État',
  active: 'Actif',
  disabled: 'Désactivé',
  enable: 'Activer',
  disable: 'Désactiver',
  delete: 'Supprimer',
  deleteTitle: 'Supprimer le point de réception',
  deleteDescription:
    'Le partenaire ne recevra plus rien à cette adresse ; les livraisons en attente et les lettres mortes sont supprimées.',
  deleted: 'Point de réception supprimé.',
  deleteFailed: 'La suppression a échoué.',
  toggleFailed: 'Le changement d’état a échoué.',
  enabled: 'Point de réception activé.',
  disabledDone: 'Point de réception désactivé.',
  counts: 'Livraisons',
  pendingCount: (n: number) => `${formatNumber(n)} en attente`,
  deliveredCount: (n: number) => `${formatNumber(n)} ${n > 1 ? 'livrées' : 'livrée'}`,
  deadCount: (n: number) => `${formatNumber(n)} ${n > 1 ? 'lettres mortes' : 'lettre morte'}`,
  /** An endpoint the partner registered itself with its API token (docs/decisions/0051). */
  byPartner: 'Enregistré par le partenaire (jeton d’API)',
  actions: 'Actions',
  signalement: 'Signalement',
  event: 'Événement',
  attempts: 'Essais',
  lastAnswer: 'Dernière réponse',
  nextAttempt: 'Prochain essai',
  deliveredAt: 'Livré le',
  retry: 'Relancer',
  retried: 'Livraison relancée.',
  retryFailed: 'La relance a échoué.',
  create: 'Enregistrer',
  created: 'Point de réception enregistré.',
  createFailed: "L'enregistrement a échoué.",
  partnerPlaceholder: 'Choisir un partenaire',
  secretTitle: 'Secret de signature',
  secretWarning:
    'Copiez ce secret maintenant et transmettez-le au partenaire : il ne sera plus jamais affiché. Il vérifie chaque livraison selon Standard Webhooks (en-têtes webhook-id, webhook-timestamp, webhook-signature).',
  close: 'Fermer',
  rotate: 'Renouveler le secret',
  rotateDescription: (url: string, hours: number) =>
    `Un nouveau secret de signature est créé pour ${url} et affiché une seule fois. L’ancien reste valable ${hours} heures : pendant ce délai, chaque livraison porte les deux signatures, le temps que le partenaire installe le nouveau. Un nouveau renouvellement pendant ce délai efface aussitôt le plus ancien des deux.`,
  rotated: 'Secret renouvelé.',
  rotateFailed: 'Le renouvellement du secret a échoué.',
  previousUntil: (date: string) => `L’ancien secret signe encore les livraisons jusqu’au ${date}.`,
  loadFailed: 'Le chargement des webhooks a échoué.',
} as const;

export const DELIVERY_STATE_LABELS = {
  pending: 'En attente',
  delivered: 'Livré',
  dead: 'Lettre morte',
} as const;

/** A waiting delivery whose last attempt failed: it will be tried again, then become a dead letter. */
export const FAILING_LABEL = 'En échec';
