// The words of the « Accès API » screen (docs/decisions/0038-partner-api-tokens.md).
import type { JetonState } from '#shared/dto/jetons-api';

export const ACCES_API_TEXT = {
  title: 'Accès API',
  subtitle:
    "Jetons d'API des systèmes partenaires : chacun dépose ou lit les signalements de son seul partenaire, selon ses autorisations.",
  newToken: 'Nouveau jeton',
  filterLabel: 'Partenaire',
  allPartners: 'Tous les partenaires',
  empty: "Aucun jeton d'API.",
  loadFailed: "Impossible de charger les jetons d'API.",
  columns: {
    nom: 'Nom',
    partenaire: 'Partenaire',
    scopes: 'Autorisations',
    expiresAt: 'Expire le',
    lastUsedAt: 'Dernière utilisation',
    etat: 'État',
    actions: 'Actions',
  },
  neverUsed: 'Jamais',
  revoke: 'Révoquer',
  revokeTitle: 'Révoquer ce jeton ?',
  revokeDescription: (nom: string) =>
    `Le jeton « ${nom} » cessera aussitôt de fonctionner : le système partenaire recevra une erreur 401 à sa prochaine requête. Cette action est définitive.`,
  revoked: 'Jeton révoqué.',
  revokeFailed: 'La révocation a échoué.',
  form: {
    title: "Nouveau jeton d'API",
    partenaire: 'Partenaire',
    partenairePlaceholder: 'Choisir un partenaire',
    nom: 'Nom du jeton',
    nomPlaceholder: 'Guichet des plaintes – production',
    scopes: 'Autorisations',
    scopesPlaceholder: 'Choisir les autorisations',
    duree: 'Durée de validité',
    days: (n: number) => `${n} jours`,
    submit: 'Créer le jeton',
    failed: 'La création du jeton a échoué.',
  },
  secret: {
    title: 'Jeton créé',
    warning:
      "Copiez ce jeton maintenant et transmettez-le au partenaire par un canal sûr : il ne sera plus jamais affiché. S'il est perdu, révoquez-le et créez-en un autre.",
    label: "Jeton d'API",
    copy: 'Copier',
    copied: 'Jeton copié.',
    done: "J'ai copié le jeton",
  },
} as const;

export const STATE_LABELS: Record<JetonState, string> = {
  actif: 'Actif',
  expire: 'Expiré',
  revoque: 'Révoqué',
};
