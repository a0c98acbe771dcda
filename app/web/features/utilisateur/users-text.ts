import { formatNumber } from '#web/lib/format';
import type { RouterOutputs } from '#web/lib/trpc';

export type UserRow = RouterOutputs['utilisateurs']['list']['items'][number];
export type Role = RouterOutputs['utilisateurs']['roles'][number];

/** What the users screen says (spec §2 Users, §8 Users), in one place. */
export const USERS_TEXT = {
  title: 'Gestion des Utilisateurs',
  searchPlaceholder: 'Rechercher par nom/prénom...',
  total: (n: number) => `${formatNumber(n)} utilisateur(s) au total`,
  empty: 'Aucun utilisateur trouvé.',
  neverConnected: 'Jamais connecté',
  active: 'Actif',
  disabled: 'Désactivé',
  newUser: 'Nouvel Utilisateur',
  createTitle: 'Créer un utilisateur',
  createDescription: "Un email d'initialisation lui sera envoyé pour qu'il choisisse son mot de passe.",
  editTitle: "Modifier l'utilisateur",
  ownRoleLocked: 'Vous ne pouvez pas modifier votre propre rôle.',
  loadFailed: 'Impossible de charger les utilisateurs',
  rolesFailed: 'Impossible de charger les rôles utilisateurs',
  roleNotFound: 'Rôle sélectionné introuvable',
  createFailed: "Échec de la création de l'utilisateur.",
  created: (nomPrenom: string) =>
    `L'utilisateur ${nomPrenom} a été créé avec succès. Un email d'initialisation a été envoyé.`,
  updateFailed: "Échec de la modification de l'utilisateur.",
  updated: 'Utilisateur modifié avec succès !',
  statusFailed: 'Impossible de mettre à jour le statut utilisateur',
  statusChanged: (enabled: boolean) => `Utilisateur ${enabled ? 'activé' : 'désactivé'} avec succès !`,
  statusTitle: (enable: boolean) => (enable ? 'Activer cet utilisateur ?' : 'Désactiver cet utilisateur ?'),
  statusDescription: (user: { nomPrenom: string }, enable: boolean) =>
    enable
      ? `${user.nomPrenom} pourra de nouveau se connecter.`
      : `${user.nomPrenom} ne pourra plus se connecter et ses sessions ouvertes seront fermées immédiatement.`,
  resetTitle: 'Réinitialiser le mot de passe',
  resetDescription: (email: string) =>
    `Un email de réinitialisation sera envoyé à ${email}. Le lien reçu permettra de choisir un nouveau mot de passe.`,
  resetFailed: "Impossible d'envoyer l'email de réinitialisation",
  resetSent: 'Email de réinitialisation envoyé avec succès !',
  editAction: 'Modifier',
  resetAction: "Envoyer l'email de réinitialisation",
  resetUnavailable: 'Utilisateur désactivé : activez-le avant de réinitialiser son mot de passe.',
  twoFactorResetAction: 'Réinitialiser la double authentification',
  twoFactorResetTitle: 'Réinitialiser la double authentification ?',
  twoFactorResetDescription: (nomPrenom: string) =>
    `La clé et les codes de secours de ${nomPrenom} seront supprimés et ses sessions ouvertes fermées. À sa prochaine connexion, il devra de nouveau activer la double authentification si elle lui est demandée.`,
  twoFactorResetDone: 'Double authentification réinitialisée avec succès !',
  twoFactorResetFailed: 'Impossible de réinitialiser la double authentification',
} as const;
