import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { createUtilisateurInputSchema, editUtilisateurFormSchema } from '#shared/schemas/utilisateurs';
import { Dialog } from '#web/components/ui/dialog';
import { Field } from '#web/components/ui/field';
import { DialogFooter, Form } from '#web/components/ui/form-actions';
import { SelectField, TextField } from '#web/components/ui/form-field';
import { useToast } from '#web/components/ui/toast';
import { errorCode, serverMessage } from '#web/lib/errors';
import { useTRPC } from '#web/lib/trpc';
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
    <Form label={USERS_TEXT.createTitle} onSubmit={onSubmit}>
      <TextField
        control={form.control}
        name="email"
        id="user-email"
        label="Email"
        type="email"
        autoComplete="off"
        autoFocus
        placeholder="nom@exemple.mg"
      />
      <TextField control={form.control} {...NAME_FIELD} />
      <SelectField control={form.control} {...roleField(roles)} />
      <DialogFooter pending={create.isPending} submitLabel="Créer" onCancel={onClose} />
    </Form>
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

  const locked = user.isCurrentUser;
  return (
    <Form label={USERS_TEXT.editTitle} onSubmit={onSubmit}>
      <Field htmlFor="user-email" label="Email" hint="L'email n'est pas modifiable.">
        <input id="user-email" type="email" className="input w-full" value={user.email} disabled readOnly />
      </Field>
      <TextField control={form.control} {...NAME_FIELD} />
      <SelectField
        control={form.control}
        {...roleField(roles)}
        // One's own role cannot be changed; the form keeps it from its default values.
        locked={locked}
        hint={locked ? USERS_TEXT.ownRoleLocked : undefined}
      />
      <DialogFooter pending={update.isPending} submitLabel="Enregistrer" onCancel={onClose} />
    </Form>
  );
}

/** The fields both forms have: the name, and the role among the known ones. */
const NAME_FIELD = {
  name: 'nomPrenom',
  id: 'user-nom',
  label: 'Nom et prénom',
  type: 'text',
  autoComplete: 'off',
} as const;

const roleField = (roles: Role[]) =>
  ({
    name: 'utilisateurRole',
    id: 'user-role',
    label: 'Rôle',
    placeholder: 'Sélectionner un rôle',
    options: roles.map((role) => ({ value: role.code, label: role.designation })),
  }) as const;
