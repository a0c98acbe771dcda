// Word lists for the demo data generator (demo.ts), exempt from prettier because one row per entry
// reads better than exploded objects. Names of public bodies are real; every person, phone number
// and e-mail address is invented, and e-mail domains end in .example (RFC 2606) so that a demo
// database wired to a real SMTP server can never write to a real inbox.

export interface DemoPartner {
  code: string;
  designation: string;
  initial: string;
  color: string;
  email: string;
  /** +261 followed by 9 digits, as the partner form stores it. */
  phoneNumber: string;
}

// prettier-ignore
export const DEMO_PARTNERS: DemoPartner[] = [
  { code: 'BIANCO', designation: 'Bureau Indépendant Anti-Corruption', initial: 'BI', color: '#dc2626', email: 'contact@bianco.example', phoneNumber: '+261202264913' },
  { code: 'PAC', designation: "Pôle Anti-Corruption d'Antananarivo", initial: 'PA', color: '#7c3aed', email: 'greffe@pac-tana.example', phoneNumber: '+261202235187' },
  { code: 'SAMIFIN', designation: 'Service de Renseignements Financiers (SAMIFIN)', initial: 'SF', color: '#0891b2', email: 'declaration@samifin.example', phoneNumber: '+261340549823' },
  { code: 'CSI', designation: "Comité pour la Sauvegarde de l'Intégrité", initial: 'CS', color: '#059669', email: 'secretariat@csi.example', phoneNumber: '+261202266130' },
  { code: 'IGE', designation: "Inspection Générale de l'État", initial: 'IG', color: '#b45309', email: 'plaintes@ige.example', phoneNumber: '+261320712456' },
  { code: 'CDC', designation: 'Cour des Comptes', initial: 'CC', color: '#4b5563', email: 'greffe@courdescomptes.example', phoneNumber: '+261202223364' },
  { code: 'MEDIATURE', designation: 'Médiature de la République', initial: 'ME', color: '#db2777', email: 'accueil@mediature.example', phoneNumber: '+261331145078' },
  { code: 'TIIM', designation: 'Transparency International – Initiative Madagascar', initial: 'TI', color: '#2563eb', email: 'alac@ti-madagascar.example', phoneNumber: '+261344305512' },
  { code: 'FID', designation: "Fonds d'Intervention pour le Développement", initial: 'FI', color: '#16a34a', email: 'doleances@fid.example', phoneNumber: '+261202261879' },
  { code: 'ARMP', designation: 'Autorité de Régulation des Marchés Publics', initial: 'AR', color: '#ea580c', email: 'recours@armp.example', phoneNumber: '+261384021697' },
];

export interface DemoProject {
  owner: string;
  sigle: string;
  designation: string;
  description: string;
}

// prettier-ignore
export const DEMO_PROJECTS: DemoProject[] = [
  { owner: 'BIANCO', sigle: 'SNLCC', designation: 'Stratégie nationale de lutte contre la corruption', description: 'Mise en œuvre des axes régionaux de la stratégie 2025-2030.' },
  { owner: 'BIANCO', sigle: 'EDUC-INT', designation: "Éducation à l'intégrité dans les lycées", description: 'Clubs intégrité et sensibilisation des élèves.' },
  { owner: 'BIANCO', sigle: 'GUICHET', designation: 'Guichets de doléances régionaux', description: 'Réception des plaintes dans les chefs-lieux de région.' },
  { owner: 'PAC', sigle: 'SUIVI-DOS', designation: 'Suivi des dossiers de corruption', description: 'Traçabilité des procédures devant le pôle.' },
  { owner: 'PAC', sigle: 'RECOUV', designation: 'Recouvrement des avoirs illicites', description: 'Saisies et confiscations ordonnées par le pôle.' },
  { owner: 'SAMIFIN', sigle: 'DOS-MOB', designation: 'Déclarations de soupçon par mobile money', description: 'Analyse des flux suspects des opérateurs de monnaie électronique.' },
  { owner: 'SAMIFIN', sigle: 'LBC-FT', designation: 'Lutte contre le blanchiment de capitaux', description: 'Formation des assujettis et contrôles sur place.' },
  { owner: 'CSI', sigle: 'RPI', designation: 'Redevabilité des pouvoirs publics et intégrité', description: 'Appui aux plateformes de redevabilité sociale.' },
  { owner: 'CSI', sigle: 'BUDGET-CIT', designation: 'Budget citoyen des communes', description: 'Publication et explication des budgets communaux.' },
  { owner: 'IGE', sigle: 'CTRL-COLL', designation: 'Contrôle des collectivités territoriales décentralisées', description: 'Missions de vérification de la gestion communale.' },
  { owner: 'IGE', sigle: 'AUDIT-EPN', designation: 'Audit des établissements publics nationaux', description: 'Revue des dépenses et des marchés des EPN.' },
  { owner: 'IGE', sigle: 'PATRIMOINE', designation: "Inventaire du patrimoine de l'État", description: 'Recensement des véhicules et bâtiments administratifs.' },
  { owner: 'CDC', sigle: 'CGAF', designation: 'Contrôle des comptes de gestion', description: 'Jugement des comptes des comptables publics.' },
  { owner: 'CDC', sigle: 'LR-2026', designation: 'Loi de règlement 2026', description: "Rapport sur l'exécution de la loi de finances." },
  { owner: 'MEDIATURE', sigle: 'MED-REG', designation: 'Médiateurs régionaux', description: 'Traitement amiable des litiges avec l’administration.' },
  { owner: 'MEDIATURE', sigle: 'FONCIER', designation: 'Médiation foncière', description: 'Conflits liés aux titres et certificats fonciers.' },
  { owner: 'TIIM', sigle: 'ALAC', designation: "Centre d'assistance juridique et d'action citoyenne", description: 'Accompagnement juridique des témoins et victimes.' },
  { owner: 'TIIM', sigle: 'MINES-TR', designation: 'Transparence du secteur minier', description: 'Suivi des ristournes minières versées aux communes.' },
  { owner: 'TIIM', sigle: 'JEUNES-INT', designation: 'Jeunes pour l’intégrité', description: 'Réseau de jeunes observateurs de la dépense publique.' },
  { owner: 'FID', sigle: 'FSS', designation: 'Filets sociaux de sécurité', description: 'Transferts monétaires aux ménages vulnérables.' },
  { owner: 'FID', sigle: 'ACT-CASH', designation: 'Argent contre travail', description: 'Travaux communautaires rémunérés dans le Grand Sud.' },
  { owner: 'FID', sigle: 'EPP-REHAB', designation: 'Réhabilitation des écoles primaires publiques', description: 'Travaux de réhabilitation confiés à des entreprises locales.' },
  { owner: 'FID', sigle: 'CSB-EAU', designation: 'Adduction d’eau des centres de santé de base', description: 'Forages et citernes pour les CSB ruraux.' },
  { owner: 'ARMP', sigle: 'E-PROC', designation: 'Dématérialisation des marchés publics', description: 'Plateforme de soumission électronique des offres.' },
  { owner: 'ARMP', sigle: 'CRD', designation: 'Comité de règlement des différends', description: 'Recours des soumissionnaires évincés.' },
  { owner: 'ARMP', sigle: 'OBS-MP', designation: 'Observatoire des marchés publics', description: 'Publication des attributions et des avenants.' },
  { owner: 'IVY', sigle: 'PLATEFORME', designation: 'Plateforme de signalement Ivorary', description: 'Réception et orientation des signalements citoyens.' },
  { owner: 'IVY', sigle: 'LIGNE-VERTE', designation: 'Ligne verte gratuite', description: 'Numéro court pour les signalements téléphoniques.' },
  { owner: 'IVY', sigle: 'PROTECT-TEM', designation: 'Protection des lanceurs d’alerte', description: 'Orientation et suivi des personnes exposées.' },
  { owner: 'CSI', sigle: 'OBS-SANTE', designation: 'Observatoire des services de santé', description: 'Suivi de la gratuité des soins dans les CSB.' },
];

// prettier-ignore
export const FIRST_NAMES = [
  'Hery', 'Fanja', 'Tiana', 'Haja', 'Lova', 'Mamy', 'Nirina', 'Voahangy', 'Fidy', 'Toky', 'Miora',
  'Faniry', 'Andry', 'Njaka', 'Hanitra', 'Lalao', 'Rivo', 'Sitraka', 'Tsiry', 'Zo', 'Hanta', 'Noro',
  'Rado', 'Mialy', 'Tahina', 'Bodo', 'Solofo', 'Ony', 'Aina', 'Henintsoa', 'Jean Claude', 'Marie',
  'Jean de Dieu', 'Marie Hélène', 'Patrick', 'Josiane', 'Éric', 'Nathalie', 'Rija', 'Vololona',
];

// prettier-ignore
export const LAST_NAMES = [
  'Rakotomalala', 'Randriamampionona', 'Rasoanaivo', 'Andrianarivelo', 'Razafindrakoto', 'Rabemananjara',
  'Ravelomanana', 'Rajaonarison', 'Ramanantsoa', 'Randrianasolo', 'Rakotoarisoa', 'Razanamparany',
  'Rasolofonirina', 'Andriamihaja', 'Ratsimbazafy', 'Rabearivelo', 'Rakotondrabe', 'Ranaivoson',
  'Rasamoelina', 'Razafimahatratra', 'Andriantsitohaina', 'Rabenandrasana', 'Raharison', 'Rafanomezantsoa',
  'Ramaroson', 'Randriamanana', 'Tsiranana', 'Befeno', 'Tovonjanahary', 'Zafisambo', 'Velonjara', 'Soja',
  'Maroloha', 'Tsimanova', 'Rasoarimalala', 'Rahantamalala',
];

// prettier-ignore
export const AUTEUR_FUNCTIONS = [
  'Maire', 'Adjoint au maire', 'Chef fokontany', 'Chef de district', 'Secrétaire trésorier comptable',
  'Agent de la douane', 'Agent des impôts', 'Gendarme', 'Officier de police judiciaire', 'Greffier',
  'Directeur d’école primaire publique', 'Médecin-chef de CSB', 'Infirmier', 'Receveur des domaines',
  'Agent du service topographique', 'Chef de service régional', 'Président du comité de gestion',
  'Responsable des marchés publics', 'Garde forestier', 'Agent de la commune', 'Entrepreneur',
];

// prettier-ignore
export const VICTIM_FUNCTIONS = [
  'Commerçant', 'Cultivateur', 'Enseignant', 'Étudiant', 'Fonctionnaire', 'Mère de famille',
  'Transporteur', 'Pêcheur', 'Retraité', 'Éleveur', 'Artisan', 'Chauffeur de taxi-brousse',
];

// prettier-ignore
export const FOKONTANY = [
  'Ambohimanarina', 'Andohalo', 'Antsahabe', 'Ambodivona', 'Tanambao', 'Mahazoarivo', 'Ampasimazava',
  'Ankadifotsy', 'Ambalavao', 'Andranomena', 'Ambatomena', 'Antanambao', 'Anosivola', 'Ambohitsoa',
  'Mangarivotra', 'Ankazomiriotra', 'Morafeno', 'Ambalakely', 'Tsaramandroso', 'Ampasikely',
  'Soanierana', 'Ambodifasina', 'Anjiamangirana', 'Beravina', 'Vohilava', 'Andranovory',
];

// Written with their preposition so that templates read 'un agent du centre fiscal', 'auprès de l’état civil'.
// prettier-ignore
export const SERVICES = [
  'de l’état civil de la commune', 'du bureau des domaines', 'du service topographique', 'du centre de santé de base',
  'de l’école primaire publique', 'du poste de gendarmerie', 'du commissariat', 'du bureau de la douane',
  'du centre fiscal', 'du tribunal de première instance', 'de la direction régionale de l’éducation',
  'du bureau du district', 'du guichet foncier communal', 'de la direction régionale des mines',
];

// prettier-ignore
export const DESCRIPTION_TEMPLATES = [
  'Le plaignant signale qu’un agent {service} exige {montant} Ar pour la délivrance d’un document administratif.',
  'Des fonds destinés au projet « {projet} » auraient été détournés par des responsables locaux à {lieu}.',
  'Un responsable {service} aurait attribué un marché à une entreprise appartenant à un proche.',
  'Des usagers dénoncent le paiement systématique de {montant} Ar pour accéder aux soins, pourtant gratuits.',
  'Plusieurs habitants de {lieu} rapportent des barrages routiers où {montant} Ar sont réclamés aux transporteurs.',
  'Le dossier foncier du plaignant est bloqué depuis des mois auprès {service} faute de « frais de traitement » de {montant} Ar.',
  'Des bénéficiaires du projet « {projet} » affirment que leur nom a été retiré des listes au profit de proches du chef fokontany.',
  'Un enseignant aurait exigé {montant} Ar aux parents pour l’inscription aux examens officiels à {lieu}.',
  'Des matériaux livrés pour le projet « {projet} » à {lieu} auraient été revendus avant le début des travaux.',
  'Le signalant dénonce des menaces reçues après avoir refusé de verser {montant} Ar à un agent {service}.',
  'Des coupes illicites de bois précieux seraient tolérées par des agents locaux à {lieu} moyennant {montant} Ar.',
  'Une agente {service} aurait falsifié des pièces justificatives pour des dépenses fictives.',
  'Le plaignant signale une absence prolongée du personnel {service} à {lieu}, sans justification, depuis plusieurs semaines.',
];

// prettier-ignore
export const AUTRE_OBJETS = [
  'Vente illicite de terrains domaniaux', 'Trafic de bois de rose', 'Exploitation minière illégale',
  'Délivrance frauduleuse de cartes d’identité', 'Harcèlement d’un témoin', 'Vol de bétail couvert par des agents',
  'Surfacturation de fournitures scolaires',
];

// prettier-ignore
export const AUTRES_CANAUX = [
  'Boîte à doléances', 'Radio locale', 'Réunion publique', 'Via le chef fokontany', 'Lettre anonyme déposée',
];

// prettier-ignore
export const ACTIONS_PROVISOIRES = [
  'Audition du plaignant', 'Demande de pièces complémentaires', 'Transmission au parquet',
  'Mission de vérification sur place', 'Saisine du supérieur hiérarchique', 'Mise sous protection du témoin',
  'Gel conservatoire des paiements', 'Convocation du mis en cause', 'Orientation vers le partenaire compétent',
];

// prettier-ignore
export const PREUVES = [
  'Reçu manuscrit', 'Enregistrement audio', 'Photographies', 'Copie du bon de commande', 'Capture d’écran de messages',
  'Témoignages écrits', 'Relevé de transfert mobile money', 'Procès-verbal de réunion', 'Vidéo',
  'Copie de la facture', 'Liste des bénéficiaires',
];

// prettier-ignore
export const SOURCE_DESCRIPTIONS = [
  'Témoin direct des faits', 'Membre de la famille de la victime', 'Collègue du mis en cause',
  'Responsable associatif local', 'Journaliste de la radio locale', 'Usager du service',
];
