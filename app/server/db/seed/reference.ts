import {
  DEFAULT_DELAIS_TRAITEMENT,
  INTERNAL_PARTNER_CODE,
  OTHERS_CODE,
  ROLE_ADMIN,
  ROLE_USER,
  type StatutKind,
} from '#shared/constants';
import { type Database } from '../client';

interface Coded {
  code: string;
  designation: string;
}

export const UTILISATEUR_ROLES = [
  { code: ROLE_ADMIN, designation: 'Administrateur' },
  { code: ROLE_USER, designation: 'Utilisateur' },
  { code: 'ROLE_GESTIONNAIRE', designation: 'Gestionnaire' },
  { code: 'ROLE_ENQUETEUR', designation: 'Enquêteur' },
  { code: 'ROLE_ANALYSTE', designation: 'Analyste' },
  { code: 'ROLE_ASSISTANT', designation: 'Assistant' },
] as const satisfies readonly Coded[];

// OTHERS stays last: pickers list subjects by position and 'Autre' reads as the fallback.
export const SUBJECTS = [
  { code: 'CORRUPTION', designation: 'Corruption', position: 1 },
  { code: 'DETOURNEMENT', designation: 'Détournement de deniers publics', position: 2 },
  { code: 'ABUS_POUVOIR', designation: 'Abus de pouvoir', position: 3 },
  { code: 'FRAUDE', designation: 'Fraude', position: 4 },
  { code: 'NEGLIGENCE', designation: 'Négligence', position: 5 },
  { code: 'CONFLIT_INTERETS', designation: "Conflit d'intérêts", position: 6 },
  { code: 'FAVORITISME', designation: 'Favoritisme', position: 7 },
  { code: 'EXTORSION', designation: 'Extorsion', position: 8 },
  { code: 'TRAFIC_INFLUENCE', designation: "Trafic d'influence", position: 9 },
  { code: 'ENRICHISSEMENT_ILLICITE', designation: 'Enrichissement illicite', position: 10 },
  { code: OTHERS_CODE, designation: 'Autre (à préciser)', position: 99 },
] as const satisfies readonly (Coded & { position: number })[];

export const CANALS = [
  { code: 'TELEPHONE', designation: 'Téléphone', icon: 'phone', position: 1 },
  { code: 'EMAIL', designation: 'Email', icon: 'mail', position: 2 },
  { code: 'EN_PERSONNE', designation: 'En personne', icon: 'user', position: 3 },
  { code: 'COURRIER', designation: 'Courrier', icon: 'file-text', position: 4 },
  { code: 'SITE_WEB', designation: 'Site web', icon: 'globe', position: 5 },
  { code: 'SMS', designation: 'SMS', icon: 'smartphone', position: 6 },
  { code: 'RESEAUX_SOCIAUX', designation: 'Réseaux sociaux', icon: 'message-circle', position: 7 },
  { code: OTHERS_CODE, designation: 'Autre (à préciser)', icon: 'circle-help', position: 99 },
] as const satisfies readonly (Coded & { icon: string; position: number })[];

export const NIVEAUX = [
  { code: 'FAIBLE', designation: 'Faible', color: '#22c55e', rank: 1 },
  { code: 'MOYEN', designation: 'Moyen', color: '#f59e0b', rank: 2 },
  { code: 'ELEVE', designation: 'Élevé', color: '#f97316', rank: 3 },
  { code: 'CRITIQUE', designation: 'Critique', color: '#ef4444', rank: 4 },
] as const satisfies readonly (Coded & { color: string; rank: number })[];

export const STATUTS = [
  { code: 'NOUVEAU', designation: 'Nouveau', kind: 'open', position: 1 },
  { code: 'EN_COURS', designation: 'En cours de traitement', kind: 'open', position: 2 },
  { code: 'EN_ENQUETE', designation: 'En enquête', kind: 'open', position: 3 },
  { code: 'TRAITE', designation: 'Traité', kind: 'treated', position: 4 },
  { code: 'CLOTURE', designation: 'Clôturé', kind: 'closed', position: 5 },
  { code: 'REJETE', designation: 'Rejeté', kind: 'closed', position: 6 },
] as const satisfies readonly (Coded & { kind: StatutKind; position: number })[];

// Exactly the five result codes of the specification (§3); the dashboard colours them by code (§9).
export const RESULTATS = [
  { code: 'RESULTAT_AVERE', designation: 'Avéré', position: 1 },
  { code: 'RESULTAT_NON_AVERE', designation: 'Non avéré', position: 2 },
  { code: 'RESULTAT_PARTIELLEMENT_AVERE', designation: 'Partiellement avéré', position: 3 },
  { code: 'RESULTAT_NON_DETERMINE', designation: 'Non déterminé', position: 4 },
  { code: 'RESULTAT_FAUX_SIGNALEMENT', designation: 'Faux signalement', position: 5 },
] as const satisfies readonly (Coded & { position: number })[];

export const INTERNAL_PARTNER = {
  code: INTERNAL_PARTNER_CODE,
  designation: 'Ivorary',
  initial: 'IV',
  color: '#3b82f6',
} as const;

export type RoleCode = (typeof UTILISATEUR_ROLES)[number]['code'];
export type SubjectCode = (typeof SUBJECTS)[number]['code'];
export type CanalCode = (typeof CANALS)[number]['code'];
export type NiveauCode = (typeof NIVEAUX)[number]['code'];
export type StatutCode = (typeof STATUTS)[number]['code'];
export type ResultatCode = (typeof RESULTATS)[number]['code'];

/**
 * Inserts the reference lists and the internal partner. Rows already present are left as they are
 * (insert … on conflict (code) do nothing), so the server can run this at every start without
 * undoing an administrator's renaming or recolouring.
 */
export async function seedReference(db: Database): Promise<void> {
  const { t } = db;
  await db.transaction(async (tx) => {
    await tx
      .insert(t.utilisateurRoles)
      .values([...UTILISATEUR_ROLES])
      .onConflictDoNothing({ target: t.utilisateurRoles.code });
    await tx
      .insert(t.subjects)
      .values([...SUBJECTS])
      .onConflictDoNothing({ target: t.subjects.code });
    await tx
      .insert(t.canals)
      .values([...CANALS])
      .onConflictDoNothing({ target: t.canals.code });
    await tx
      .insert(t.niveaux)
      .values([...NIVEAUX])
      .onConflictDoNothing({ target: t.niveaux.code });
    // The default handling deadlines (docs/decisions/0032), once: an administrator's choice is kept.
    const niveaux = await tx.select({ id: t.niveaux.id, code: t.niveaux.code }).from(t.niveaux);
    await tx
      .insert(t.delaisTraitement)
      .values(
        niveaux.map((n) => ({
          niveauId: n.id,
          jours: Object.hasOwn(DEFAULT_DELAIS_TRAITEMENT, n.code) ? DEFAULT_DELAIS_TRAITEMENT[n.code]! : null,
        })),
      )
      .onConflictDoNothing({ target: t.delaisTraitement.niveauId });
    await tx
      .insert(t.statuts)
      .values([...STATUTS])
      .onConflictDoNothing({ target: t.statuts.code });
    await tx
      .insert(t.resultats)
      .values([...RESULTATS])
      .onConflictDoNothing({ target: t.resultats.code });
    await tx
      .insert(t.partenaires)
      .values({ ...INTERNAL_PARTNER })
      .onConflictDoNothing({ target: t.partenaires.code });
  });
}
