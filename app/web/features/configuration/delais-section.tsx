import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import type { DelaiTraitementDto } from '#shared/dto/delais';
import { delaisFormSchema, type DelaisFormValues, type DelaisUpdate } from '#shared/schemas/delais';
import { Badge } from '#web/components/ui/badge';
import { Form, SubmitButton } from '#web/components/ui/form-actions';
import { TextField } from '#web/components/ui/form-field';
import { useToast } from '#web/components/ui/toast';
import { useWhoAmI } from '#web/features/auth/use-who-am-i';
import { serverMessage } from '#web/lib/errors';
import { isAdmin } from '#web/lib/role';
import { useTRPC } from '#web/lib/trpc';
import { ConfigurationSection } from './configuration-section';

export const DELAIS_TEXT = {
  title: 'Délais de traitement',
  intro:
    "Délai de traitement de chaque niveau, en jours ouvrés du calendrier de Madagascar (du lundi au vendredi, hors jours fériés), compté à partir du jour ouvré qui suit la date de signalement. Un signalement est à traiter tant que son statut n'est pas traité ou clôturé.",
  readOnly: 'Lecture seule : seuls les administrateurs modifient les délais.',
  none: 'Aucun délai',
  hint: 'En jours ouvrés ; vide : aucun délai.',
  save: 'Enregistrer les délais',
  saved: 'Délais de traitement enregistrés.',
  failed: "Les délais n'ont pas pu être enregistrés.",
  loadFailed: 'Impossible de charger les délais de traitement.',
} as const;

const jours = (n: number | null) =>
  n === null ? DELAIS_TEXT.none : `${n} jour${n > 1 ? 's' : ''} ouvré${n > 1 ? 's' : ''}`;

/**
 * « Délais de traitement » on the Configuration screen (docs/decisions/0032-deadlines.md): administrators
 * set a deadline per niveau (whole business days, or empty for none); other staff read them.
 */
export function DelaisSection() {
  const trpc = useTRPC();
  const whoAmI = useWhoAmI();
  const query = useQuery(trpc.delais.list.queryOptions());
  return (
    <ConfigurationSection
      id="delais"
      title={DELAIS_TEXT.title}
      intro={DELAIS_TEXT.intro}
      query={query}
      loadFailed={DELAIS_TEXT.loadFailed}
    >
      {query.data &&
        (isAdmin(whoAmI.user) ? <DelaisForm delais={query.data} /> : <DelaisTable delais={query.data} />)}
    </ConfigurationSection>
  );
}

function NiveauBadge({ niveau }: { niveau: DelaiTraitementDto['niveau'] }) {
  return <Badge color={niveau.color}>{niveau.designation}</Badge>;
}

function DelaisTable({ delais }: { delais: DelaiTraitementDto[] }) {
  return (
    <>
      <p className="text-sm" data-testid="delais-read-only">
        {DELAIS_TEXT.readOnly}
      </p>
      <table className="table table-sm w-auto" data-testid="delais-table">
        <thead>
          <tr>
            <th>Niveau</th>
            <th>Délai de traitement</th>
          </tr>
        </thead>
        <tbody>
          {delais.map((d) => (
            <tr key={d.niveau.code} data-testid="delai-row" data-niveau={d.niveau.code}>
              <td>
                <NiveauBadge niveau={d.niveau} />
              </td>
              <td>{jours(d.jours)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function DelaisForm({ delais }: { delais: DelaiTraitementDto[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const form = useForm<DelaisFormValues, unknown, DelaisUpdate>({
    resolver: zodResolver(delaisFormSchema),
    defaultValues: {
      delais: delais.map((d) => ({ niveau: d.niveau.code, jours: d.jours === null ? '' : String(d.jours) })),
    },
  });
  const update = useMutation(
    trpc.delais.update.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(trpc.delais.list.queryKey(), saved);
        // Due days moved: the list, the details and the dashboard's counts are read again.
        void queryClient.invalidateQueries({ queryKey: trpc.signalements.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.dashboard.pathKey() });
        form.reset({
          delais: saved.map((d) => ({
            niveau: d.niveau.code,
            jours: d.jours === null ? '' : String(d.jours),
          })),
        });
        toast.success(DELAIS_TEXT.saved);
      },
      onError: (error) =>
        toast.error(DELAIS_TEXT.failed, { description: serverMessage(error, DELAIS_TEXT.failed) }),
    }),
  );
  return (
    <Form label={DELAIS_TEXT.title} onSubmit={form.handleSubmit((values) => update.mutate(values))}>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-4">
        {delais.map((d, i) => (
          <TextField
            key={d.niveau.code}
            control={form.control}
            name={`delais.${i}.jours`}
            id={`delai-${d.niveau.code}`}
            label={`${d.niveau.designation} (jours ouvrés)`}
            hint={DELAIS_TEXT.hint}
            type="text"
            inputMode="numeric"
            autoComplete="off"
            data-testid={`delai-input-${d.niveau.code}`}
          />
        ))}
      </div>
      <div>
        <SubmitButton pending={update.isPending} disabled={!form.formState.isDirty}>
          {DELAIS_TEXT.save}
        </SubmitButton>
      </div>
    </Form>
  );
}
