import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { API_TOKEN_SCOPE_LABELS, API_TOKEN_SCOPES } from '#shared/constants';
import type { CreatedJeton } from '#shared/dto/jetons-api';
import {
  JETON_DUREES,
  jetonFormSchema,
  type JetonCreate,
  type JetonFormValues,
} from '#shared/schemas/jetons-api';
import { MultiSelectField } from '#web/components/ui/choice-fields';
import { Dialog } from '#web/components/ui/dialog';
import { DialogFooter, Form } from '#web/components/ui/form-actions';
import { SelectField, TextField } from '#web/components/ui/form-field';
import type { Option } from '#web/components/ui/option-list';
import { useToast } from '#web/components/ui/toast';
import { serverMessage } from '#web/lib/errors';
import { useTRPC } from '#web/lib/trpc';
import { ACCES_API_TEXT } from './acces-api-text';

const T = ACCES_API_TEXT.form;
const SCOPE_OPTIONS: Option[] = API_TOKEN_SCOPES.map((s) => ({ value: s, label: API_TOKEN_SCOPE_LABELS[s] }));
const DUREE_OPTIONS: Option[] = JETON_DUREES.map((n) => ({ value: String(n), label: T.days(n) }));

/** « Nouveau jeton d'API »: partner, name, scopes, lifetime; the form is mounted afresh at each opening. */
export function JetonFormDialog({
  open,
  partners,
  onClose,
  onCreated,
}: {
  open: boolean;
  partners: Option[];
  onClose: () => void;
  onCreated: (created: CreatedJeton) => void;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={T.title} data-testid="jeton-form-dialog">
      {open && <JetonForm partners={partners} onClose={onClose} onCreated={onCreated} />}
    </Dialog>
  );
}

function JetonForm({
  partners,
  onClose,
  onCreated,
}: {
  partners: Option[];
  onClose: () => void;
  onCreated: (created: CreatedJeton) => void;
}) {
  const trpc = useTRPC();
  const toast = useToast();
  const form = useForm<JetonFormValues, unknown, JetonCreate>({
    resolver: zodResolver(jetonFormSchema),
    defaultValues: { partenaire: '', nom: '', scopes: [...API_TOKEN_SCOPES], dureeJours: '90' },
  });
  const create = useMutation(
    trpc.jetonsApi.create.mutationOptions({
      onSuccess: onCreated,
      onError: (error) => toast.error(T.failed, { description: serverMessage(error, T.failed) }),
    }),
  );
  const onSubmit = form.handleSubmit((values) => create.mutate(values));

  return (
    <Form label={T.title} onSubmit={onSubmit}>
      <SelectField
        control={form.control}
        name="partenaire"
        id="jeton-partenaire"
        label={T.partenaire}
        options={partners}
        placeholder={T.partenairePlaceholder}
      />
      <TextField
        control={form.control}
        name="nom"
        id="jeton-nom"
        label={T.nom}
        type="text"
        autoComplete="off"
        placeholder={T.nomPlaceholder}
      />
      <MultiSelectField
        control={form.control}
        name="scopes"
        id="jeton-scopes"
        label={T.scopes}
        placeholder={T.scopesPlaceholder}
        options={SCOPE_OPTIONS}
      />
      <SelectField
        control={form.control}
        name="dureeJours"
        id="jeton-duree"
        label={T.duree}
        options={DUREE_OPTIONS}
      />
      <DialogFooter pending={create.isPending} submitLabel={T.submit} onCancel={onClose} />
    </Form>
  );
}
