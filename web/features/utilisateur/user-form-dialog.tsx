import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import {
  createUtilisateurInputSchema,
  editUtilisateurFormSchema,
} from '../../../shared/schemas/utilisateurs';
import { Dialog } from '../../components/ui/dialog';
import { errorProps, Field } from '../../components/ui/field';
import { useToast } from '../../components/ui/toast';
import { errorCode, serverMessage } from '../../lib/errors';
import { useTRPC } from '../../lib/trpc';
import { USERS_TEXT, type Role, type UserRow } from './users-text';

type CreateValues = z.input<typeof createUtilisateurInputSchema>;
type EditValues = z.input<typeof editUtilisateurFormSchema>;

export type UserDialogState = { mode: 'create' } | { mode: 'edit'; user: UserRow } | null;

/** The create and edit dialogs of §2 Users; the form is mounted afresh at each opening. */
export function UserFormDialog({
  state,
  roles,
  onClose,
}: {
  state: UserDialogState;
  roles: Role[];
  onClose: () => void;
}) {
  return (
    <Dialog
      open={state !== null}
      onClose={onClose}
      title={state?.mode === 'edit' ? USERS_TEXT.editTitle : USERS_TEXT.createTitle}
      description={state?.mode === 'create' ? USERS_TEXT.createDescription : undefined}
      data-testid="user-form-dialog"
    >
      {state?.mode === 'create' && <CreateUserForm roles={roles} onClose={onClose} />}
      {state?.mode === 'edit' && <EditUserForm user={state.user} roles={roles} onClose={onClose} />}
    </Dialog>
  );
}

function useInvalidateUsers() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: trpc.utilisateurs.list.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.mail.failed.queryKey() });
  };
}

function CreateUserForm({ roles, onClose }: { roles: Role[]; onClose: () => void }) {
  const trpc = useTRPC();
  const toast = useToast();
  const invalidate = useInvalidateUsers();
  const form = useForm<CreateValues, unknown, z.output<typeof createUtilisateurInputSchema>>({
    resolver: zodResolver(createUtilisateurInputSchema),
    defaultValues: { email: '', nomPrenom: '', utilisateurRole: '' },
  });
  const { errors } = form.formState;
  const create = useMutation(
    trpc.utilisateurs.create.mutationOptions({
      onSuccess(user) {
        toast.success(USERS_TEXT.created(user.nomPrenom));
        invalidate();
        onClose();
      },
      onError(error) {
        const message = serverMessage(error, USERS_TEXT.createFailed);
        // A taken e-mail belongs under its field; other refusals only in the toast.
        if (errorCode(error) === 'CONFLICT') form.setError('email', { message });
        toast.error(USERS_TEXT.createFailed, { description: message });
      },
    }),
  );
  const onSubmit = form.handleSubmit((values) => {
    if (!roles.some((role) => role.code === values.utilisateurRole))
      return toast.error(USERS_TEXT.roleNotFound);
    create.mutate(values);
  });

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3" aria-label={USERS_TEXT.createTitle}>
      <Field htmlFor="user-email" label="Email" error={errors.email?.message}>
        <input
          id="user-email"
          type="email"
          autoComplete="off"
          autoFocus
          className={`input w-full ${errors.email ? 'input-error' : ''}`}
          placeholder="nom@exemple.mg"
          {...errorProps('user-email', errors.email?.message)}
          {...form.register('email')}
        />
      </Field>
      <NameAndRole form={form as unknown as NameRoleForm} roles={roles} />
      <FormActions pending={create.isPending} submitLabel="Créer" onCancel={onClose} />
    </form>
  );
}

function EditUserForm({ user, roles, onClose }: { user: UserRow; roles: Role[]; onClose: () => void }) {
  const trpc = useTRPC();
  const toast = useToast();
  const invalidate = useInvalidateUsers();
  const form = useForm<EditValues, unknown, z.output<typeof editUtilisateurFormSchema>>({
    resolver: zodResolver(editUtilisateurFormSchema),
    defaultValues: { nomPrenom: user.nomPrenom, utilisateurRole: user.utilisateurRole.code },
  });
  const update = useMutation(
    trpc.utilisateurs.update.mutationOptions({
      onSuccess() {
        toast.success(USERS_TEXT.updated);
        invalidate();
        onClose();
      },
      onError(error) {
        toast.error(USERS_TEXT.updateFailed, { description: serverMessage(error, USERS_TEXT.updateFailed) });
      },
    }),
  );
  const onSubmit = form.handleSubmit((values) => {
    if (!roles.some((role) => role.code === values.utilisateurRole))
      return toast.error(USERS_TEXT.roleNotFound);
    update.mutate({ code: user.code, ...values });
  });

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3" aria-label={USERS_TEXT.editTitle}>
      <Field htmlFor="user-email" label="Email" hint="L'email n'est pas modifiable.">
        <input id="user-email" type="email" className="input w-full" value={user.email} disabled readOnly />
      </Field>
      <NameAndRole
        form={form}
        roles={roles}
        lockedRole={user.isCurrentUser ? user.utilisateurRole.code : undefined}
      />
      <FormActions pending={update.isPending} submitLabel="Enregistrer" onCancel={onClose} />
    </form>
  );
}

type NameRoleForm = UseFormReturn<EditValues, unknown, z.output<typeof editUtilisateurFormSchema>>;

/** Name and role, common to both forms (the create form passes itself narrowed to these two fields). */
function NameAndRole({
  form,
  roles,
  lockedRole,
}: {
  form: NameRoleForm;
  roles: Role[];
  lockedRole?: string;
}) {
  const { errors } = form.formState;
  return (
    <>
      <Field htmlFor="user-nom" label="Nom et prénom" error={errors.nomPrenom?.message}>
        <input
          id="user-nom"
          type="text"
          autoComplete="off"
          className={`input w-full ${errors.nomPrenom ? 'input-error' : ''}`}
          {...errorProps('user-nom', errors.nomPrenom?.message)}
          {...form.register('nomPrenom')}
        />
      </Field>
      <Field
        htmlFor="user-role"
        label="Rôle"
        error={errors.utilisateurRole?.message}
        hint={lockedRole ? USERS_TEXT.ownRoleLocked : undefined}
      >
        {lockedRole ? (
          // Not registered: the form keeps the current role from its default values.
          <select id="user-role" className="select w-full" value={lockedRole} disabled>
            {roles.map((role) => (
              <option key={role.code} value={role.code}>
                {role.designation}
              </option>
            ))}
          </select>
        ) : (
          <select
            id="user-role"
            className={`select w-full ${errors.utilisateurRole ? 'select-error' : ''}`}
            {...errorProps('user-role', errors.utilisateurRole?.message)}
            {...form.register('utilisateurRole')}
          >
            <option value="">Sélectionner un rôle</option>
            {roles.map((role) => (
              <option key={role.code} value={role.code}>
                {role.designation}
              </option>
            ))}
          </select>
        )}
      </Field>
    </>
  );
}

function FormActions({
  pending,
  submitLabel,
  onCancel,
}: {
  pending: boolean;
  submitLabel: string;
  onCancel: () => void;
}) {
  return (
    <div className="modal-action">
      <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={pending}>
        Annuler
      </button>
      <button type="submit" className="btn btn-primary" disabled={pending}>
        {pending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {submitLabel}
      </button>
    </div>
  );
}
