// The French sentences of the access log, as the screen, the xlsx export and the alert e-mails show them.
import { describe, expect, it } from 'vitest';
import { describeAlert, describeEntry } from './describe';

/** The narrow no-break space that fr-FR groups thousands with, as the client's formatNumber shows them. */
const NNBSP = '\u202f';

describe('French descriptions of the access log', () => {
  it('says what each kind of entry read, exported or changed', () => {
    expect(describeEntry('lecture_personnes', { personnes: 'sources', nombre: 3 })).toBe('Sources (3)');
    expect(describeEntry('lecture_personnes', { personnes: 'victimes', nombre: 0 })).toBe('Victimes (0)');
    expect(describeEntry('lecture_personnes', { personnes: 'sources', protegees: true, masquees: 2 })).toBe(
      "Sources protégées : 2 masquées (besoin d'en connaître)",
    );
    expect(describeEntry('lecture_historique', { entrees: 5, personnes: 3, masquees: 1 })).toBe(
      'Historique : 5 entrées, dont 3 sur des personnes, 1 masquée',
    );
    expect(describeEntry('export', { format: 'xlsx', filtres: {}, lignes: 120 })).toBe(
      'Export xlsx : 120 lignes',
    );
    expect(describeEntry('lecture_notes', { nombre: 2 })).toBe('Notes internes (2)');
    expect(
      describeEntry('parametres', { parametre: 'recapitulatif_quotidien', avant: true, apres: false }),
    ).toBe('Récapitulatif quotidien : activé → désactivé');
    expect(
      describeEntry('parametres', { parametre: 'delai_traitement', niveau: 'MOYEN', avant: 30, apres: null }),
    ).toBe('Délai de traitement MOYEN : 30 jours → aucun délai');
    expect(describeEntry('lecture_notes', { protegees: true, masquees: 1 })).toBe(
      "Notes internes protégées : 1 masquée (besoin d'en connaître)",
    );
    expect(describeEntry('export', { format: 'xlsx', filtres: {}, lignes: 3, notesInternes: true })).toBe(
      'Export xlsx : 3 lignes, avec les notes internes',
    );
    expect(describeEntry('export', { objet: 'journal', format: 'xlsx', lignes: 1 })).toBe(
      'Export du journal des accès xlsx : 1 ligne',
    );
    expect(
      describeEntry('droits', {
        action: 'modification',
        utilisateur: 'USR1',
        role: { avant: 'Utilisateur', apres: 'Administrateur' },
      }),
    ).toBe('Rôle : Utilisateur → Administrateur (USR1)');
    expect(
      describeEntry('droits', {
        action: 'modification',
        utilisateur: 'USR1',
        compte: { avant: 'actif', apres: 'désactivé' },
      }),
    ).toBe('Compte : actif → désactivé (USR1)');
    expect(describeEntry('droits', { action: 'creation', utilisateur: 'USR2', role: 'Utilisateur' })).toBe(
      'Création du compte (USR2) : rôle Utilisateur',
    );
    expect(describeEntry('droits', { action: 'reinitialisation_2fa', utilisateur: 'USR3' })).toBe(
      'Réinitialisation de la double authentification (USR3)',
    );
    expect(describeEntry('droits', { action: 'assignation', utilisateur: 'USR4' })).toBe(
      'Assignation du signalement (USR4)',
    );
    expect(
      describeEntry('droits', { action: 'desassignation', utilisateur: 'USR4', motif: 'compte_desactive' }),
    ).toBe("Fin d'assignation du signalement (USR4) : compte désactivé");
    expect(describeEntry('connexion', { etape: 'mot_de_passe' })).toBe('Connexion (mot de passe)');
    expect(describeEntry('echec_connexion', { motif: 'mot_de_passe_incorrect' })).toBe(
      'Mot de passe incorrect',
    );
  });

  it('says what was searched without the text, the refusals counted, and what the purge removed', () => {
    const search = { type: 'texte', longueur: 12, mots: 2, empreinte: 'abc' };
    expect(describeEntry('export', { format: 'json', lignes: 3, filtres: { recherche: search } })).toBe(
      'Export json : 3 lignes, recherche (12 caractères)',
    );
    expect(
      describeEntry('export', {
        format: 'xlsx',
        lignes: 1,
        filtres: { recherche: { type: 'code', code: 'SIG-AAAA-BBBB' } },
      }),
    ).toBe('Export xlsx : 1 ligne, recherche du signalement SIG-AAAA-BBBB');
    expect(describeEntry('echec_connexion', { motif: 'compte_inconnu', empreinte: 'k3Yx' })).toBe(
      'Compte inconnu (e-mail saisi, empreinte k3Yx)',
    );
    expect(
      describeEntry('echec_connexion', { motif: 'trop_de_tentatives', refus: 994, fenetreMinutes: 15 }),
    ).toBe(
      'Trop de tentatives (connexion refusée sans vérification) : 994 autres connexions refusées en 15 minutes',
    );
    expect(describeEntry('purge', { supprimees: 1, avant: '2025-11-25', conservationJours: 365 })).toBe(
      'Purge des entrées antérieures au 25/11/2025 (conservation 365 jours) : 1 entrée supprimée',
    );
  });

  it('writes counts of 1,000 and more with fr-FR thousands separators, as the client does', () => {
    expect(describeEntry('export', { format: 'xlsx', filtres: {}, lignes: 12_345 })).toBe(
      `Export xlsx : 12${NNBSP}345 lignes`,
    );
    expect(describeEntry('export', { objet: 'journal', format: 'xlsx', lignes: 1_000, tronque: true })).toBe(
      `Export du journal des accès xlsx : 1${NNBSP}000 lignes (limité)`,
    );
    expect(describeEntry('lecture_historique', { entrees: 1_500, personnes: 1_200, masquees: 0 })).toBe(
      `Historique : 1${NNBSP}500 entrées, dont 1${NNBSP}200 sur des personnes`,
    );
    expect(describeEntry('lecture_notes', { nombre: 2_000 })).toBe(`Notes internes (2${NNBSP}000)`);
    expect(
      describeEntry('action_groupee', {
        action: 'statut',
        statut: 'CLOS',
        selection: 'filtre',
        selectionnes: 10_000,
        modifies: 9_876,
      }),
    ).toBe(
      `Action groupée (changement de statut : CLOS) sur les 10${NNBSP}000 signalements d'un filtre : 9${NNBSP}876 modifiés`,
    );
    expect(
      describeEntry('purge', { supprimees: 123_456, avant: '2025-11-25', conservationJours: 3650 }),
    ).toBe(
      `Purge des entrées antérieures au 25/11/2025 (conservation 3${NNBSP}650 jours) : 123${NNBSP}456 entrées supprimées`,
    );
    expect(describeAlert('export_massif', { format: 'xlsx', lignes: 9_000, total: 12_000, part: 0.75 })).toBe(
      `a exporté 9${NNBSP}000 signalements sur 12${NNBSP}000 (75 %) en xlsx`,
    );
    expect(describeAlert('lecture_quotidienne', { signalements: 1_001, seuil: 1_000 })).toBe(
      `a consulté les personnes de 1${NNBSP}001 signalements dans la journée (seuil : 1${NNBSP}000)`,
    );
  });

  it('says what was done to an internal note, by its code only', () => {
    expect(describeEntry('ecriture_notes', { action: 'ajout', note: 'NOT-AAAA-BBBB' })).toBe(
      'Ajout de la note interne NOT-AAAA-BBBB',
    );
    expect(describeEntry('ecriture_notes', { action: 'modification', note: 'NOT-AAAA-BBBB' })).toBe(
      'Modification de la note interne NOT-AAAA-BBBB',
    );
    expect(describeEntry('ecriture_notes', { action: 'suppression', note: 'NOT-AAAA-BBBB' })).toBe(
      'Suppression de la note interne NOT-AAAA-BBBB',
    );
    expect(describeEntry('ecriture_notes', {})).toBe('Écriture de la note interne —');
  });

  it('falls back to the label of the kind for details it does not know', () => {
    expect(describeEntry('connexion', { etape: 'autre' })).toBe('Connexion');
    expect(describeEntry('echec_connexion', {})).toBe('Échec de connexion');
  });

  it('writes the sentence of each alert', () => {
    expect(describeAlert('lecture_massive', { signalements: 25, fenetreMinutes: 10 })).toBe(
      'a consulté les personnes de 25 signalements en 10 minutes',
    );
    expect(describeAlert('export_massif', { format: 'xlsx', lignes: 150, total: 200, part: 0.75 })).toBe(
      'a exporté 150 signalements sur 200 (75 %) en xlsx',
    );
    expect(
      describeAlert('export_massif', { format: 'xlsx', lignes: 150, total: 200, part: 0.75, exports: 3 }),
    ).toBe('a exporté 150 signalements sur 200 (75 %) en 3 exports dans la journée');
    expect(describeAlert('export_quotidien', { lignes: 1200, exports: 4, seuil: 1000 })).toBe(
      `a exporté 1${NNBSP}200 lignes de signalements en 4 exports dans la journée (seuil : 1${NNBSP}000)`,
    );
    expect(describeAlert('lecture_quotidienne', { signalements: 60, seuil: 60 })).toBe(
      'a consulté les personnes de 60 signalements dans la journée (seuil : 60)',
    );
  });
});
