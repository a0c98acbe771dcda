// Input schemas of the report domain (spec §5), shared by the server (tRPC input, REST body) and the
// client (react-hook-form through zodResolver). Messages are the specification's, to the letter.
import { z } from 'zod';
import { BULK_MAX, OTHERS_CODE, PAGE_SIZE_SIGNALEMENTS } from '../constants';
import { formatNumber } from '../number';
import { codeSchema, isoDate, optionalText, pastDate, ref, textList } from './common';

export const MESSAGES = {
  partenaireRequired: 'Le partenaire concerné est obligatoire.',
  subjectsRequired: 'Au moins un objet de plainte est obligatoire.',
  subjectsRequiredDetail: 'Au moins un sujet est obligatoire.',
  canalRequired: 'Le canal de réception principal est obligatoire.',
  dateRequired: 'La date de signalement est obligatoire.',
  autreObjectRequired: "La description pour 'Autre' est obligatoire.",
  autreCanalRequired: "La description pour 'Autre Canal' est obligatoire.",
  nameRequired: 'Le nom est requis.',
  sigleRequired: 'Le sigle est obligatoire.',
  designationMin: 'La désignation doit contenir au moins 2 caractères.',
  emailInvalid: 'Veuillez saisir une adresse email valide.',
  contentMin: 'Le contenu du message doit contenir au moins 10 caractères.',
} as const;

const isBlank = (v: string | null | undefined) => !v || v.trim() === '';

/** The OTHERS rules of §5, shared by creation, detail and the service's merged patch check. */
export function othersIssues(value: {
  subjects?: string[] | null;
  autreObject?: string | null;
  canalPrincipal?: string | null;
  autreCanalPrincipal?: string | null;
}): Array<{ path: string; message: string }> {
  const issues: Array<{ path: string; message: string }> = [];
  if (value.subjects?.includes(OTHERS_CODE) && isBlank(value.autreObject)) {
    issues.push({ path: 'autreObject', message: MESSAGES.autreObjectRequired });
  }
  if (value.canalPrincipal === OTHERS_CODE && isBlank(value.autreCanalPrincipal)) {
    issues.push({ path: 'autreCanalPrincipal', message: MESSAGES.autreCanalRequired });
  }
  return issues;
}

const addOthersIssues = (value: Parameters<typeof othersIssues>[0], ctx: z.RefinementCtx) => {
  for (const issue of othersIssues(value))
    ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
};

// ---------------------------------------------------------------- creation
export const signalementCreateSchema = z
  .object({
    partenaire: ref('partenaires', MESSAGES.partenaireRequired),
    subjects: z
      .array(ref('subjects', MESSAGES.subjectsRequired), { error: MESSAGES.subjectsRequired })
      .min(1, { message: MESSAGES.subjectsRequired })
      .max(50),
    canalPrincipal: ref('canals', MESSAGES.canalRequired),
    signalementAt: pastDate(MESSAGES.dateRequired),
    autreObject: optionalText(2000),
    autreCanalPrincipal: optionalText(2000),
  })
  .superRefine(addOthersIssues);
export type SignalementCreateInput = z.input<typeof signalementCreateSchema>;

// ---------------------------------------------------------------- detail (merge-patch)
const nullableRef = (collection: string) => ref(collection).nullable();

/** Every field optional (merge-patch): absent means unchanged, null means cleared. */
export const signalementPatchSchema = z
  .strictObject(
    {
      description: optionalText(20_000),
      isConfict: z.boolean(),
      isRecurrent: z.boolean(),
      isInternalResponsability: z.boolean(),
      isAnonyme: z.boolean(),
      niveau: nullableRef('niveaux'),
      statut: nullableRef('statuts'),
      resultat: nullableRef('resultats'),
      canalPrincipal: nullableRef('canals'),
      autreCanalPrincipal: optionalText(2000),
      subjects: z
        .array(ref('subjects', MESSAGES.subjectsRequiredDetail))
        .min(1, { message: MESSAGES.subjectsRequiredDetail })
        .max(50),
      autreObject: optionalText(2000),
      projects: z.array(ref('projects')).max(100),
      actionProvisoires: textList,
      preuves: textList,
      lastActionAt: isoDate('Date invalide.').nullable(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys' ? `Champ inconnu : ${issue.keys.join(', ')}.` : undefined,
    },
  )
  .partial();
export type SignalementPatchInput = z.input<typeof signalementPatchSchema>;

/**
 * The version the caller read (SignalementDto.version): with it, a write over a report changed since is
 * refused with a 409 (docs/decisions/0047-edit-conflicts.md); without it, the write happens as before.
 */
export const expectedVersionSchema = z.number().int().min(1).max(2_147_483_647).optional();

/** The detail form as a whole (client side): the §5 detail rules on the full set of values. */
export const signalementDetailFormSchema = z
  .object({
    description: z.string().nullable(),
    isConfict: z.boolean(),
    isRecurrent: z.boolean(),
    isInternalResponsability: z.boolean(),
    niveau: z.string().nullable(),
    statut: z.string().nullable(),
    resultat: z.string().nullable(),
    canalPrincipal: z.string().nullable(),
    autreCanalPrincipal: z.string().nullable(),
    subjects: z.array(z.string()).min(1, { message: MESSAGES.subjectsRequiredDetail }),
    autreObject: z.string().nullable(),
    projects: z.array(z.string()),
    actionProvisoires: z.array(z.string()),
    preuves: z.array(z.string()),
  })
  .superRefine(addOthersIssues);
export type SignalementDetailForm = z.infer<typeof signalementDetailFormSchema>;

// ---------------------------------------------------------------- location
export const localisationSchema = z.strictObject({
  region: ref('regions').nullable().optional(),
  district: ref('districts').nullable().optional(),
  commune: ref('communes').nullable().optional(),
  fokontany: optionalText(200),
});
export type LocalisationInput = z.input<typeof localisationSchema>;

// ---------------------------------------------------------------- people
const name = z
  .string({ error: MESSAGES.nameRequired })
  .trim()
  .min(2, { message: MESSAGES.nameRequired })
  .max(300);

export const auteurSchema = z.object({
  nomPrenom: name,
  fonction: optionalText(300),
  description: optionalText(5000),
});
export const auteurCreateSchema = auteurSchema.extend({ signalement: ref('signalements') });

export const sourceSchema = z
  .object({
    nomPrenom: optionalText(300),
    contact: optionalText(300),
    description: optionalText(5000),
    autreCanal: optionalText(2000),
    canaux: z.array(ref('canals')).max(20).default([]),
  })
  .superRefine((value, ctx) => {
    if (value.canaux.includes(OTHERS_CODE) && isBlank(value.autreCanal)) {
      ctx.addIssue({ code: 'custom', path: ['autreCanal'], message: MESSAGES.autreCanalRequired });
    }
  });
export const sourceCreateSchema = z.object({ signalement: ref('signalements') }).and(sourceSchema);

export const victimeSchema = z.object({
  nomPrenom: name,
  fonction: optionalText(300),
  contact: optionalText(300),
});
export const victimeCreateSchema = victimeSchema.extend({ signalement: ref('signalements') });

// ---------------------------------------------------------------- projects
export const projectCreateSchema = z.object({
  sigle: z
    .string({ error: MESSAGES.sigleRequired })
    .trim()
    .min(1, { message: MESSAGES.sigleRequired })
    .max(50),
  designation: z
    .string({ error: MESSAGES.designationMin })
    .trim()
    .min(2, { message: MESSAGES.designationMin })
    .max(300),
  description: optionalText(5000),
  owner: ref('partenaires', MESSAGES.partenaireRequired),
});

// ---------------------------------------------------------------- e-mail to the partner
export const notifyPartnerSchema = z.object({
  email: z
    .string({ error: MESSAGES.emailInvalid })
    .trim()
    .pipe(z.email({ message: MESSAGES.emailInvalid })),
  content: z
    .string({ error: MESSAGES.contentMin })
    .trim()
    .min(10, { message: MESSAGES.contentMin })
    .max(20_000),
});

// ---------------------------------------------------------------- list
export const SORT_FIELDS = ['signalementAt', 'code', 'partenaire.designation', 'echeance'] as const;
/** The deadline filter (docs/decisions/0032): « En retard », « À échéance sous 7 jours ». */
export const ECHEANCE_FILTERS = ['en_retard', 'sous_7_jours'] as const;
export type EcheanceFilter = (typeof ECHEANCE_FILTERS)[number];
/** The state filter: « Ouverts » (not treated) or « Traités ou clos » (a statut of the treated or closed kind). */
export const ETAT_FILTERS = ['ouvert', 'traite'] as const;
export type EtatFilter = (typeof ETAT_FILTERS)[number];
export const ETAT_INVALID = 'État invalide (ouvert ou traite).';

/** The list filters in the §7 vocabulary; the REST query string parses straight into this. */
/** A boolean of the query string ('true'/'false') or of a tRPC input. */
const queryBoolean = z.union([
  z.boolean(),
  z.enum(['true', 'false'], { message: 'Valeur invalide (true ou false).' }).transform((v) => v === 'true'),
]);

export const signalementListSchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  itemsPerPage: z.coerce.number().int().min(1).max(100).default(PAGE_SIZE_SIGNALEMENTS),
  search: z.string().trim().max(200).optional(),
  order: z
    .partialRecord(z.enum(SORT_FIELDS), z.enum(['asc', 'desc']))
    .optional()
    .refine((o) => !o || Object.keys(o).length <= 1, { message: 'Un seul critère de tri.' }),
  'partenaire.code': z.array(z.string().max(64)).max(100).optional(),
  'subjects.code': z.array(z.string().max(64)).max(100).optional(),
  'createdBy.code': z.array(z.string().max(64)).max(100).optional(),
  'region.code': z.string().max(64).optional(),
  'district.code': z.string().max(64).optional(),
  'commune.code': z.string().max(64).optional(),
  signalementAt: z
    .object({ after: isoDate('Date invalide.').optional(), before: isoDate('Date invalide.').optional() })
    .optional(),
  // « Assigné à » (docs/decisions/0028): users by code, or `exists[assignees]=false` for « Non assigné ».
  'assignees.code': z.array(z.string().max(64)).max(100).optional(),
  exists: z.object({ assignees: queryBoolean.optional() }).optional(),
  // « En retard » / « À échéance sous 7 jours » (docs/decisions/0032), by the server's today.
  echeance: z
    .enum(ECHEANCE_FILTERS, { message: 'Échéance invalide (en_retard ou sous_7_jours).' })
    .optional(),
  // « Ouverts » (is_treated false) / « Traités ou clos » (is_treated true): what « Mes dossiers » counts.
  etat: z.enum(ETAT_FILTERS, { message: ETAT_INVALID }).optional(),
});
export type SignalementListInput = z.input<typeof signalementListSchema>;
export type SignalementListQuery = z.output<typeof signalementListSchema>;
/** The export takes the same filters without pagination. */
export const signalementExportSchema = signalementListSchema.omit({ page: true, itemsPerPage: true });

/** Assigning a report (docs/decisions/0028): the user by IRI (/api/utilisateurs/{code}) or code. */
export const assignSchema = z.object({
  utilisateur: ref('utilisateurs', 'Veuillez choisir un utilisateur.'),
});
export type AssignInput = z.input<typeof assignSchema>;
/**
 * The xlsx export: the same filters, and `notesInternes=true` (« Inclure les notes internes ») to add the
 * internal notes in a last column; off by default (docs/decisions/0029-internal-notes.md).
 */
export const signalementXlsxExportSchema = signalementExportSchema.extend({
  notesInternes: z
    .enum(['true', 'false'], { error: 'Valeur true ou false attendue.' })
    .optional()
    .transform((v) => v === 'true'),
});

// ---------------------------------------------------------------- bulk actions (docs/decisions/0035-bulk-actions.md)
export const BULK_MESSAGES = {
  selection: 'Choisissez des signalements (codes) ou un filtre, pas les deux.',
  tooMany: `Une action groupée porte sur au plus ${formatNumber(BULK_MAX)} signalements.`,
  action: 'Action inconnue : assigner, desassigner, statut ou niveau.',
  user: 'Veuillez choisir un utilisateur.',
  statut: 'Veuillez choisir un statut.',
} as const;

const bulkUser = ref('utilisateurs', BULK_MESSAGES.user);
/** What a bulk action does: one of four, each with its value (a niveau may be cleared with null). */
export const bulkActionSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('assigner'), utilisateur: bulkUser }),
    z.strictObject({ type: z.literal('desassigner'), utilisateur: bulkUser }),
    z.strictObject({ type: z.literal('statut'), statut: ref('statuts', BULK_MESSAGES.statut) }),
    z.strictObject({ type: z.literal('niveau'), niveau: ref('niveaux').nullable() }),
  ],
  { error: BULK_MESSAGES.action },
);
export type BulkAction = z.output<typeof bulkActionSchema>;

const bulkSelection = {
  codes: z
    .array(codeSchema)
    .min(1, { message: BULK_MESSAGES.selection })
    .max(BULK_MAX, { message: BULK_MESSAGES.tooMany })
    .optional(),
  filtre: signalementExportSchema.optional(),
  action: bulkActionSchema,
};
const oneSelection = (v: { codes?: unknown; filtre?: unknown }) =>
  (v.codes === undefined) !== (v.filtre === undefined);

/**
 * The reports a bulk action acts on: hand-picked codes, or every report of the list's filters (the list's
 * own parameters, resolved by the list's own code), and the action. What the preview takes.
 */
export const bulkPreviewSchema = z
  .strictObject(bulkSelection)
  .refine(oneSelection, { message: BULK_MESSAGES.selection, path: ['codes'] });
export type BulkPreviewInput = z.input<typeof bulkPreviewSchema>;

/** The action itself: `attendu`, the count the confirmation stated; another count refuses it (409). */
export const bulkActionInputSchema = z
  .strictObject({ ...bulkSelection, attendu: z.number().int().min(0).max(BULK_MAX).optional() })
  .refine(oneSelection, { message: BULK_MESSAGES.selection, path: ['codes'] });
export type BulkActionInput = z.input<typeof bulkActionInputSchema>;
