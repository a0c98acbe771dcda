// Input schemas of the user accounts (spec §5 "Create user" / "Edit user") and of the password set-up
// page, shared by the server (tRPC input, REST body) and the forms. Messages are the specification's.
import { z } from 'zod';
import {
  FILTER_PICKER_SIZE,
  NAME_MIN_LENGTH,
  PAGE_SIZE_UTILISATEURS,
  PASSWORD_MIN_LENGTH,
} from '../constants';
import { codeSchema, ref } from './common';

export const USER_MESSAGES = {
  emailRequired: "L'email est requis.",
  emailInvalid: "Format d'email invalide.",
  nomPrenomMin: 'Le nom et prénom doivent contenir au moins 2 caractères.',
  roleRequired: 'Veuillez sélectionner un rôle.',
  passwordMin: `Le mot de passe doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères.`,
  passwordMismatch: 'Les mots de passe ne correspondent pas.',
  nothingToChange: 'Aucune modification demandée.',
} as const;

export const listUtilisateursInputSchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  itemsPerPage: z.coerce.number().int().min(1).max(300).default(PAGE_SIZE_UTILISATEURS),
  nomPrenom: z.string().trim().max(200).optional(),
});
export type ListUtilisateursInput = z.infer<typeof listUtilisateursInputSchema>;

/** The report list's creator picker: any logged-in user, at most FILTER_PICKER_SIZE entries. */
export const utilisateurOptionsInputSchema = z
  .object({
    search: z.string().trim().max(200).optional(),
    /** Only enabled accounts: the assignment picker (docs/decisions/0028). */
    enabledOnly: z.boolean().optional(),
  })
  .optional();
export const UTILISATEUR_OPTIONS_LIMIT = FILTER_PICKER_SIZE;

export const utilisateurCodeSchema = codeSchema;

const emailField = z
  .string({ error: USER_MESSAGES.emailRequired })
  .trim()
  .min(1, USER_MESSAGES.emailRequired)
  // pipe: an empty e-mail reports only "requis", not also "format invalide".
  .pipe(z.email(USER_MESSAGES.emailInvalid).max(254, USER_MESSAGES.emailInvalid));

const nomPrenomField = z
  .string({ error: USER_MESSAGES.nomPrenomMin })
  .trim()
  .min(NAME_MIN_LENGTH, USER_MESSAGES.nomPrenomMin)
  .max(200, 'Au plus 200 caractères.');

/** A role code ('ROLE_USER') or its IRI ('/api/utilisateur_roles/ROLE_USER'), parsed to the code. */
const roleField = ref('utilisateur_roles', USER_MESSAGES.roleRequired);

/** POST /api/utilisateur/create-user and `utilisateurs.create`; also the create dialog's form. */
export const createUtilisateurInputSchema = z.object({
  email: emailField,
  nomPrenom: nomPrenomField,
  utilisateurRole: roleField,
});
export type CreateUtilisateurInput = z.output<typeof createUtilisateurInputSchema>;

/** The edit dialog: the e-mail is not editable. */
export const editUtilisateurFormSchema = z.object({
  nomPrenom: nomPrenomField,
  utilisateurRole: roleField,
});

const patchFields = {
  nomPrenom: nomPrenomField.optional(),
  utilisateurRole: roleField.optional(),
  isEnabled: z.boolean({ error: 'isEnabled doit valoir true ou false.' }).optional(),
};
const somethingToChange = (patch: Record<string, unknown>) =>
  Object.values(patch).some((value) => value !== undefined);

/** PATCH /api/utilisateurs/{code}: {nomPrenom, utilisateurRole} or {isEnabled}. */
export const updateUtilisateurInputSchema = z
  .object(patchFields)
  .refine(somethingToChange, { message: USER_MESSAGES.nothingToChange });
export type UpdateUtilisateurInput = z.output<typeof updateUtilisateurInputSchema>;

/** `utilisateurs.update`: the same patch, with the user's code. */
export const updateUtilisateurTrpcInputSchema = z
  .object({ code: utilisateurCodeSchema, ...patchFields })
  .refine(({ code: _code, ...patch }) => somethingToChange(patch), {
    message: USER_MESSAGES.nothingToChange,
  });

export const passwordField = z
  .string({ error: USER_MESSAGES.passwordMin })
  .min(PASSWORD_MIN_LENGTH, USER_MESSAGES.passwordMin)
  .max(256, 'Au plus 256 caractères.');

export const passwordTokenSchema = z.string().trim().min(1, "Ce lien n'est pas valide.").max(200);

/** `passwordTokens.define` and POST /api/definir-mot-de-passe/{token}. */
export const definePasswordInputSchema = z.object({ token: passwordTokenSchema, password: passwordField });

/** The set-up page's form: the password twice. */
export const definePasswordFormSchema = z
  .object({ password: passwordField, confirmation: z.string() })
  .refine((v) => v.password === v.confirmation, {
    path: ['confirmation'],
    message: USER_MESSAGES.passwordMismatch,
  });
