import type { TwoFactorStep } from '#shared/schemas/auth';
import { FALLBACK_PATH } from '#shared/constants';

export const TWO_FACTOR_VERIFY_PATH = '/double-authentification';
export const TWO_FACTOR_ENROL_PATH = '/double-authentification/activation';

/** Where a session goes after the password, or when the guard finds a step still owed. */
export function pathForStep(step: TwoFactorStep): string {
  if (step === 'verify') return TWO_FACTOR_VERIFY_PATH;
  if (step === 'enrol') return TWO_FACTOR_ENROL_PATH;
  return FALLBACK_PATH;
}

export const TWO_FACTOR_TEXT = {
  verifyTitle: 'Double authentification',
  verifyIntro: "Saisissez le code à 6 chiffres affiché par votre application d'authentification.",
  recoveryIntro: 'Saisissez un de vos codes de secours. Chaque code ne peut servir qu’une fois.',
  codeLabel: 'Code de vérification',
  recoveryLabel: 'Code de secours',
  recoveryFormLabel: 'Connexion avec un code de secours',
  verify: 'Vérifier',
  useRecovery: 'Utiliser un code de secours',
  useApp: "Utiliser l'application d'authentification",
  logout: 'Se déconnecter',
  verifyFailed: 'La vérification a échoué. Réessayez.',
  recoveryLeft: (n: number) =>
    n === 0
      ? "Vous n'avez plus de code de secours : demandez à un administrateur de réinitialiser votre double authentification."
      : `Code de secours accepté. Il vous en reste ${n}.`,
  enrolTitle: 'Activer la double authentification',
  enrolIntro:
    "Scannez ce QR code avec votre application d'authentification (Google Authenticator, FreeOTP, Aegis…) ou, sur le téléphone qui la porte, touchez « Ouvrir dans l'application ». Saisissez ensuite le code à 6 chiffres qu'elle affiche et votre mot de passe.",
  openInApp: "Ouvrir dans l'application",
  openInAppHint: "Sur le téléphone de l'application, ce bouton lui ajoute votre compte sans rien saisir.",
  passwordLabel: 'Mot de passe actuel',
  enrolRequired: 'La double authentification est obligatoire pour votre compte.',
  keyLabel: 'Clé à saisir si vous ne pouvez pas scanner le QR code',
  qrLabel: "QR code à scanner avec l'application d'authentification",
  confirm: 'Activer',
  enrolFailed: "L'activation a échoué. Réessayez.",
  setupFailed: "Impossible de préparer l'activation.",
  retry: 'Réessayer',
  alreadyEnrolled: 'La double authentification est déjà activée pour votre compte.',
  enrolled: 'Double authentification activée avec succès !',
  codesTitle: 'Vos codes de secours',
  codesIntro:
    "Conservez ces dix codes en lieu sûr : ils permettent de vous connecter si vous perdez votre téléphone. Chaque code ne sert qu'une fois. Ils ne seront plus jamais affichés.",
  codesKept: "J'ai enregistré mes codes",
  codesListLabel: 'Codes de secours',
  copy: 'Copier',
  download: 'Télécharger',
  print: 'Imprimer',
  copied: 'Codes de secours copiés dans le presse-papiers.',
  copyDenied:
    'Copie automatique impossible : les codes sont sélectionnés, copiez-les avec Ctrl+C (ou « Copier » sur un téléphone).',
  downloaded: 'Fichier des codes de secours téléchargé.',
  fileName: 'codes-de-secours-signalements.txt',
  fileHeader: 'Signalements : codes de secours de la double authentification',
  fileAccount: (email: string) => `Compte : ${email}`,
  fileDate: (day: string) => `Date : ${day}`,
  fileUse: "Chaque code ne sert qu'une fois. Conservez ce fichier en lieu sûr.",
  leaveTitle: 'Codes de secours non enregistrés',
  leaveDescription:
    "Ces codes ne seront plus jamais affichés. Copiez-les, téléchargez-les ou imprimez-les, puis cliquez sur « J'ai enregistré mes codes ».",
  leaveStay: 'Rester sur la page',
  leaveAnyway: 'Quitter sans les enregistrer',
} as const;
