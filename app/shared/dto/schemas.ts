// The answers of the REST facade as zod schemas: what the OpenAPI and Hydra documents publish and what the
// test fixture checks every answer against (docs/decisions/0037-api-documents.md). Each one matches its
// TypeScript DTO (server/http/api-doc/parity.ts fails the type check when they drift apart).
import { z } from 'zod';

/** The Hydra class a nested schema stands for: its properties' range in /api/docs.jsonld. */
export const hydraClasses = z.registry<{ hydraClass: string }>();
const resource = <T extends z.ZodType>(schema: T, hydraClass: string): T => {
  hydraClasses.add(schema, { hydraClass });
  return schema;
};

const iri = z.string().describe('IRI de la ressource');
const dateTime = z.iso.datetime({ offset: true }).describe('Date et heure ISO 8601');
const day = z.iso.date().describe('Jour yyyy-MM-dd');
const coded = { code: z.string(), designation: z.string() };

export const refDtoSchema = z.object({ '@id': iri, ...coded });
export const subjectDtoSchema = resource(refDtoSchema.extend({}), 'Subject');
export const resultatDtoSchema = resource(refDtoSchema.extend({}), 'Resultat');
export const canalDtoSchema = resource(refDtoSchema.extend({ icon: z.string() }), 'Canal');
export const niveauDtoSchema = resource(
  refDtoSchema.extend({ color: z.string(), rank: z.number().int() }),
  'Niveau',
);
export const statutDtoSchema = resource(
  refDtoSchema.extend({ kind: z.enum(['open', 'treated', 'closed']) }),
  'Statut',
);
export const partenaireRefDtoSchema = resource(
  refDtoSchema.extend({ initial: z.string(), color: z.string() }),
  'Partenaire',
);
const place = refDtoSchema.extend({ latitude: z.number().nullable(), longitude: z.number().nullable() });
export const regionDtoSchema = resource(place.extend({}), 'Region');
export const districtDtoSchema = resource(place.extend({}), 'District');
export const communeDtoSchema = resource(place.extend({}), 'Commune');
export const projectDtoSchema = resource(
  refDtoSchema.extend({
    sigle: z.string(),
    description: z.string().nullable(),
    owner: partenaireRefDtoSchema,
  }),
  'Project',
);
export const userRefDtoSchema = resource(
  z.object({ '@id': iri, code: z.string(), email: z.string(), nomPrenom: z.string() }),
  'Utilisateur',
);
export const staffRefDtoSchema = resource(
  z.object({ '@id': iri, code: z.string(), nomPrenom: z.string() }),
  'Utilisateur',
);
const person = z.object({ code: z.string(), nomPrenom: z.string() });

export const assignationDtoSchema = z.object({
  '@id': iri,
  '@type': z.literal('Assignation'),
  utilisateur: staffRefDtoSchema,
  assignedBy: staffRefDtoSchema.nullable(),
  assignedAt: dateTime,
});

export const signalementDtoSchema = z.object({
  '@id': iri,
  '@type': z.literal('Signalement'),
  code: z.string(),
  signalementAt: dateTime,
  createdAt: dateTime,
  closeAt: dateTime.nullable(),
  lastActionAt: dateTime.nullable(),
  createdBy: userRefDtoSchema,
  partenaire: partenaireRefDtoSchema,
  canalPrincipal: canalDtoSchema.nullable(),
  autreCanalPrincipal: z.string().nullable(),
  autreObject: z.string().nullable(),
  subjects: z.array(subjectDtoSchema),
  region: regionDtoSchema.nullable(),
  district: districtDtoSchema.nullable(),
  commune: communeDtoSchema.nullable(),
  fokontany: z.string().nullable(),
  projects: z.array(projectDtoSchema),
  isTreated: z.boolean(),
  echeance: day.nullable(),
  isInternalResponsability: z.boolean(),
  isConfict: z.boolean(),
  isRecurrent: z.boolean(),
  isAnonyme: z.boolean(),
  niveau: niveauDtoSchema.nullable(),
  statut: statutDtoSchema.nullable(),
  resultat: resultatDtoSchema.nullable(),
  description: z.string().nullable(),
  actionProvisoires: z.array(z.string()),
  preuves: z.array(z.string()),
  assignees: z.array(staffRefDtoSchema),
  canEdit: z.boolean(),
  canAssign: z.boolean(),
  version: z.number().int().min(1).describe('Version du signalement (précondition If-Match / ETag)'),
});

/** A stale edit's 409 (docs/decisions/0047-edit-conflicts.md). */
export const editConflictDtoSchema = z.object({
  status: z.literal(409),
  message: z.string(),
  version: z.number().int().min(1).describe('Version actuelle du signalement'),
  champs: z.array(
    z.object({
      champ: z.string().describe('Champ modifié par la requête'),
      valeurActuelle: z.unknown().describe('Valeur actuelle sur le serveur'),
      votreValeur: z.unknown().describe('Valeur envoyée'),
    }),
  ),
});

const listRef = z.object(coded);
export const signalementListItemDtoSchema = z.object({
  '@id': iri,
  '@type': z.literal('Signalement'),
  code: z.string(),
  signalementAt: dateTime,
  partenaire: listRef.extend({ color: z.string() }),
  subjects: z.array(listRef),
  canalPrincipal: listRef.nullable(),
  region: listRef.nullable(),
  district: listRef.nullable(),
  commune: listRef.nullable(),
  statut: listRef.nullable(),
  niveau: listRef.extend({ color: z.string() }).nullable(),
  isTreated: z.boolean(),
  echeance: day.nullable(),
  assignees: z.array(person),
});

/** A report as a partner's system reads it with an API token: codes, dates and status only (decision 0038). */
export const signalementPartenaireDtoSchema = z.object({
  '@id': iri,
  '@type': z.literal('Signalement'),
  code: z.string(),
  signalementAt: dateTime,
  createdAt: dateTime,
  lastActionAt: dateTime.nullable(),
  closeAt: dateTime.nullable(),
  statut: refDtoSchema.nullable(),
  resultat: refDtoSchema.nullable(),
  niveau: refDtoSchema.nullable(),
  partenaire: refDtoSchema,
});

export const auteurDtoSchema = z.object({
  '@id': iri,
  '@type': z.literal('PresumeAuteur'),
  code: z.string(),
  nomPrenom: z.string(),
  fonction: z.string().nullable(),
  description: z.string().nullable(),
  signalement: iri,
});
export const sourceDtoSchema = z.object({
  '@id': iri,
  '@type': z.literal('Source'),
  code: z.string(),
  nomPrenom: z.string().nullable(),
  contact: z.string().nullable(),
  description: z.string().nullable(),
  autreCanal: z.string().nullable(),
  canaux: z.array(canalDtoSchema.pick({ '@id': true, code: true, designation: true })),
  signalement: iri,
});
export const victimeDtoSchema = z.object({
  '@id': iri,
  '@type': z.literal('Victime'),
  code: z.string(),
  nomPrenom: z.string(),
  fonction: z.string().nullable(),
  contact: z.string().nullable(),
  signalement: iri,
});
export const sourcesListDtoSchema = z.object({
  sources: z.array(sourceDtoSchema),
  isAnonyme: z.boolean(),
  sourcesProtegees: z.number().int(),
});
export const localisationDtoSchema = z.object({
  region: regionDtoSchema.nullable(),
  district: districtDtoSchema.nullable(),
  commune: communeDtoSchema.nullable(),
  fokontany: z.string().nullable(),
});
export const historiqueEntryDtoSchema = z.object({
  id: z.number().int(),
  at: dateTime,
  action: z.string(),
  user: person.nullable(),
  changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
  masque: z.literal(true).optional(),
});
export const signalementResumeDtoSchema = z.object({
  code: z.string(),
  signalementAt: dateTime,
  canalPrincipal: listRef.nullable(),
  statut: listRef.nullable(),
  niveau: listRef.extend({ color: z.string() }).nullable(),
  isTreated: z.boolean(),
  subjects: z.array(listRef),
  autreObject: z.string().nullable(),
  projects: z.array(z.object({ sigle: z.string(), designation: z.string() })),
  region: z.string().nullable(),
  district: z.string().nullable(),
  commune: z.string().nullable(),
  fokontany: z.string().nullable(),
  isAnonyme: z.boolean(),
  isConfict: z.boolean(),
  isRecurrent: z.boolean(),
  actionProvisoires: z.array(z.string()),
  preuves: z.array(z.string()),
  timeZone: z.string(),
});

export const noteDtoSchema = z.object({
  '@id': iri,
  '@type': z.literal('NoteInterne'),
  code: z.string(),
  signalement: iri,
  texte: z.string(),
  auteur: person,
  createdAt: dateTime,
  updatedAt: dateTime.nullable(),
  modifiableJusquA: dateTime,
  modifiable: z.boolean(),
});
export const evidenceDtoSchema = z.object({
  '@id': iri,
  '@type': z.literal('PieceJointe'),
  code: z.string(),
  signalement: iri,
  nom: z.string(),
  type: z.string(),
  taille: z.number().int(),
  sha256: z.string(),
  auteur: person,
  createdAt: dateTime,
  contenu: iri,
  supprimable: z.boolean(),
});
export const evidenceLimitsSchema = z.object({
  fichier: z.number().int(),
  signalement: z.number().int(),
  utilise: z.number().int(),
});
export const delaiTraitementDtoSchema = z.object({
  '@id': iri,
  '@type': z.literal('DelaiTraitement'),
  niveau: niveauDtoSchema,
  jours: z.number().int().nullable(),
  updatedAt: dateTime.nullable(),
});
/** A webhook endpoint as its partner's token sees it (docs/decisions/0051-partner-webhook-endpoints.md). */
export const pointDeReceptionDtoSchema = z.object({
  '@id': iri,
  '@type': z.literal('PointDeReception'),
  id: z.number().int(),
  url: z.string(),
  actif: z.boolean(),
  origine: z.enum(['administrateur', 'partenaire']),
  createdAt: dateTime,
  ancienSecretJusquA: dateTime.nullable(),
  livraisons: z.object({
    enAttente: z.number().int(),
    livrees: z.number().int(),
    lettresMortes: z.number().int(),
  }),
});
/** The same, with its signing secret: the answer of a registration or a renewal, the only time it is sent. */
export const pointDeReceptionSecretDtoSchema = pointDeReceptionDtoSchema.extend({ secret: z.string() });
export const preferencesDtoSchema = z.object({
  '@id': z.literal('/api/utilisateur/preferences'),
  '@type': z.literal('Preferences'),
  recapitulatifQuotidien: z.boolean(),
  heureRecapitulatif: z.number().int(),
  fuseau: z.string(),
});

export const utilisateurRoleDtoSchema = z.object({
  '@id': iri,
  '@type': z.literal('UtilisateurRole'),
  ...coded,
});
export const utilisateurDtoSchema = z.object({
  '@id': iri,
  '@type': z.literal('Utilisateur'),
  code: z.string(),
  email: z.string(),
  nomPrenom: z.string(),
  isEnabled: z.boolean(),
  isCurrentUser: z.boolean(),
  lastConnectionAt: dateTime.nullable(),
  utilisateurRole: resource(utilisateurRoleDtoSchema, 'UtilisateurRole'),
});
export const currentUserDtoSchema = utilisateurDtoSchema.extend({
  twoFactor: z.enum(['verify', 'enrol']).nullable(),
  twoFactorEnrolled: z.boolean(),
  timeZone: z.string(),
});
export const partenaireDtoSchema = z.object({
  '@id': iri,
  '@type': z.literal('Partenaire'),
  ...coded,
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  initial: z.string(),
  color: z.string(),
  projectsCount: z.number().int(),
  signalementsCount: z.number().int(),
});
export const failedMailDtoSchema = z.object({
  '@id': iri,
  '@type': z.literal('MailOutbox'),
  id: z.number().int(),
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: dateTime,
  state: z.enum(['failed', 'stuck']),
});
export const bulkPreviewDtoSchema = z.object({
  '@type': z.literal('ApercuActionGroupee'),
  selectionnes: z.number().int(),
  modifies: z.number().int(),
});
export const bulkResultDtoSchema = z.object({
  '@type': z.literal('ActionGroupee'),
  action: z.enum(['statut', 'niveau', 'assigner', 'desassigner']),
  selectionnes: z.number().int(),
  modifies: z.number().int(),
});
export const passwordTokenStateSchema = z.union([
  z.object({
    status: z.literal('valid'),
    purpose: z.enum(['setup', 'reset']),
    email: z.string(),
    nomPrenom: z.string(),
    expiresAt: dateTime,
  }),
  z.object({ status: z.enum(['invalid', 'expired', 'used', 'disabled']), message: z.string() }),
]);

// The dashboard's plain JSON answers (spec §3).
export const keyMetricsSchema = z.object({
  total: z.number().int(),
  treated: z.number().int(),
  inProgress: z.number().int(),
  closed: z.number().int(),
});
export const myCasesSchema = z.object({
  ouverts: z.number().int(),
  enRetard: z.number().int(),
  nonAssignes: z.number().int().nullable(),
  enRetardTous: z.number().int().nullable(),
});
export const localisationCountsSchema = z.array(
  z.object({
    id: z.string(),
    designation: z.string(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    signalementCount: z.number().int(),
  }),
);
export const canalCountsSchema = z.array(
  z.object({ id: z.string(), designation: z.string(), signalementCount: z.number().int() }),
);
export const perDaySchema = z.record(day, z.number().int());
export const subjectCountsSchema = z.array(z.object({ sujet: listRef, count: z.number().int() }));
export const niveauCountsSchema = z.array(
  z.object({ niv: listRef.extend({ color: z.string() }), count: z.number().int() }),
);
export const resultatCountsSchema = z.array(z.object({ result: listRef, count: z.number().int() }));
