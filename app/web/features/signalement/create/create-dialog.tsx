import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useLocation } from 'wouter';
import type { z } from 'zod';
import { OTHERS_CODE } from '#shared/constants';
import { signalementCreateSchema } from '#shared/schemas/signalements';
import { ComboboxField, MultiSelectField } from '#web/components/ui/choice-fields';
import { DateField } from '#web/components/ui/date-field';
import { Dialog } from '#web/components/ui/dialog';
import { DialogFooter, Form } from '#web/components/ui/form-actions';
import { SelectField, TextareaField, TextField } from '#web/components/ui/form-field';
import { useToast } from '#web/components/ui/toast';
import { serverMessage } from '#web/lib/errors';
import { isQueued, QUEUED_MESSAGE } from '#web/lib/offline/queued';
import { businessToday } from '#web/lib/format';
import { useTRPC } from '#web/lib/trpc';
import { TOASTS } from '../labels';
import { detailPath } from '../list/signalement-table';
import { toOptions, useCanals, usePartenaireOptions, useSubjects } from '../use-references';

type Values = z.input<typeof signalementCreateSchema>;
type Parsed = z.output<typeof signalementCreateSchema>;

/**
 * The creation dialog. A filled form is not thrown away by a stray Escape, « Annuler » or a click outside:
 * the user is asked first; an untouched form closes at once. A created report closes it
 * without asking.
 */
export function CreateSignalementDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [dirty, setDirty] = useState(false);
  const [asking, setAsking] = useState(false);
  const close = () => {
    setAsking(false);
    setDirty(false);
    onClose();
  };
  const requestClose = () => {
    if (dirty) setAsking(true);
    else close();
  };
  return (
    <>
      <Dialog
        open={open}
        onClose={requestClose}
        title="Initialiser un nouveau signalement"
        description="Renseignez les informations essentielles ; le reste se complète dans le détail."
        size="lg"
        data-testid="create-dialog"
      >
        {open && <CreateForm onClose={close} onCancel={requestClose} onDirtyChange={setDirty} />}
      </Dialog>
      <DiscardDialog open={open && asking} onDiscard={close} onStay={() => setAsking(false)} />
    </>
  );
}

/** Asked before a filled creation form is closed; in the style of the detail's leave dialog (§2). */
function DiscardDialog({
  open,
  onDiscard,
  onStay,
}: {
  open: boolean;
  onDiscard: () => void;
  onStay: () => void;
}) {
  return (
    <Dialog
      open={open}
      onClose={onStay}
      title="Abandonner ce nouveau signalement ?"
      description="Les informations saisies seront perdues."
      size="md"
      data-testid="discard-dialog"
      actions={
        <div className="flex w-full flex-wrap-reverse justify-end gap-2 sm:flex-nowrap">
          <button type="button" className="btn btn-ghost" onClick={onStay} autoFocus>
            Continuer la saisie
          </button>
          <button type="button" className="btn btn-error" onClick={onDiscard}>
            Abandonner
          </button>
        </div>
      }
    />
  );
}

function CreateForm({
  onClose,
  onCancel,
  onDirtyChange,
}: {
  /** Closes at once (a created report). */
  onClose: () => void;
  /** « Annuler »: closes, asking first when the form is filled. */
  onCancel: () => void;
  onDirtyChange: (dirty: boolean) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [, navigate] = useLocation();
  const [partnerSearch, setPartnerSearch] = useState('');
  const partners = usePartenaireOptions(partnerSearch);
  const subjects = useSubjects();
  const canals = useCanals();
  const loadFailed = partners.isError || subjects.isError || canals.isError;

  useEffect(() => {
    if (loadFailed) toast.error(TOASTS.formLoadFailed);
  }, [loadFailed, toast]);

  const form = useForm<Values, unknown, Parsed>({
    resolver: zodResolver(signalementCreateSchema),
    defaultValues: {
      partenaire: '',
      subjects: [],
      canalPrincipal: '',
      signalementAt: businessToday(),
      autreObject: '',
      autreCanalPrincipal: '',
    },
  });
  const chosenSubjects = useWatch({ control: form.control, name: 'subjects' });
  const chosenCanal = useWatch({ control: form.control, name: 'canalPrincipal' });
  const { isDirty } = form.formState;
  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);
  const otherSubject = chosenSubjects.includes(OTHERS_CODE);
  const otherCanal = chosenCanal === OTHERS_CODE;

  const create = useMutation(
    trpc.signalements.create.mutationOptions({
      onSuccess({ code }) {
        toast.success(TOASTS.created, { description: code });
        void queryClient.invalidateQueries({ queryKey: trpc.signalements.list.queryKey() });
        onClose();
        navigate(detailPath(code));
      },
      onError(error) {
        // Kept in the outbox (docs/decisions/0048-offline-store.md): listed in its panel until sent.
        if (isQueued(error)) {
          toast.info(QUEUED_MESSAGE);
          onClose();
          return;
        }
        toast.error(TOASTS.createFailed, { description: serverMessage(error, '') || undefined });
      },
    }),
  );

  const onSubmit = form.handleSubmit((_parsed, event) => {
    event?.preventDefault();
    const values = form.getValues();
    create.mutate({
      partenaire: values.partenaire,
      subjects: values.subjects,
      canalPrincipal: values.canalPrincipal,
      signalementAt: values.signalementAt,
      // A description left behind by an unticked OTHERS is not sent.
      autreObject: otherSubject ? values.autreObject : null,
      autreCanalPrincipal: otherCanal ? values.autreCanalPrincipal : null,
    });
  });

  return (
    <Form label="Nouveau signalement" onSubmit={onSubmit}>
      <ComboboxField
        control={form.control}
        name="partenaire"
        id="create-partenaire"
        label="Partenaire concerné"
        placeholder="Sélectionner un partenaire"
        options={partners.options}
        loading={partners.isPending}
        onSearchChange={setPartnerSearch}
        emptyText="Aucun partenaire trouvé."
        data-testid="create-partenaire"
      />
      <MultiSelectField
        control={form.control}
        name="subjects"
        id="create-subjects"
        label="Objet(s) de la plainte"
        placeholder="Sélectionner un ou plusieurs objets"
        options={toOptions(subjects.data)}
        loading={subjects.isPending}
        emptyText="Aucun objet trouvé."
        data-testid="create-subjects"
      />
      {otherSubject && (
        <TextareaField
          control={form.control}
          name="autreObject"
          id="create-autre-objet"
          label="Précisez l'objet (Autre)"
          rows={2}
        />
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          control={form.control}
          name="canalPrincipal"
          id="create-canal"
          label="Canal de réception principal"
          placeholder="Sélectionner un canal"
          options={toOptions(canals.data)}
        />
        <DateField
          control={form.control}
          name="signalementAt"
          id="create-date"
          label="Date de signalement"
          pastOnly
        />
      </div>
      {otherCanal && (
        <TextField
          control={form.control}
          name="autreCanalPrincipal"
          id="create-autre-canal"
          label="Précisez le canal (Autre)"
        />
      )}
      <DialogFooter pending={create.isPending} submitLabel="Initialiser" onCancel={onCancel} />
    </Form>
  );
}
