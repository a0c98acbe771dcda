import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PreferencesDto } from '#shared/dto/preferences';
import { Switch } from '#web/components/ui/switch';
import { useToast } from '#web/components/ui/toast';
import { serverMessage } from '#web/lib/errors';
import { useTRPC } from '#web/lib/trpc';
import { ConfigurationSection } from './configuration-section';

export const RAPPELS_TEXT = {
  title: 'Rappels quotidiens',
  intro:
    'Chaque jour, un récapitulatif est envoyé par e-mail : à chaque personne assignée, ses signalements en retard et ceux dont l’échéance tombe dans les 3 jours ; aux administrateurs, les signalements ouverts non assignés et ceux en retard. Rien n’est envoyé à qui n’a rien à traiter.',
  hour: (p: Pick<PreferencesDto, 'heureRecapitulatif' | 'fuseau'>) =>
    `Heure d’envoi : ${String(p.heureRecapitulatif).padStart(2, '0')} h 00 (${p.fuseau}), réglée par l’administrateur du serveur.`,
  toggle: 'Recevoir le récapitulatif quotidien',
  on: 'Vous recevrez le récapitulatif quotidien.',
  off: 'Vous ne recevrez plus le récapitulatif quotidien.',
  failed: "Votre choix n'a pas pu être enregistré.",
  loadFailed: 'Impossible de charger vos préférences.',
} as const;

/**
 * « Rappels quotidiens » on the Configuration screen (docs/decisions/0036-daily-reminders.md): the hour of
 * the daily reminder, read-only, and the user's own switch.
 */
export function RappelsSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const query = useQuery(trpc.preferences.get.queryOptions());
  const update = useMutation(
    trpc.preferences.update.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(trpc.preferences.get.queryKey(), saved);
        toast.success(saved.recapitulatifQuotidien ? RAPPELS_TEXT.on : RAPPELS_TEXT.off);
      },
      onError: (error) =>
        toast.error(RAPPELS_TEXT.failed, { description: serverMessage(error, RAPPELS_TEXT.failed) }),
    }),
  );
  return (
    <ConfigurationSection
      id="rappels"
      title={RAPPELS_TEXT.title}
      intro={RAPPELS_TEXT.intro}
      query={query}
      loadFailed={RAPPELS_TEXT.loadFailed}
    >
      {query.data && (
        <>
          <p className="text-sm" data-testid="rappels-heure">
            {RAPPELS_TEXT.hour(query.data)}
          </p>
          <Switch
            id="rappels-recapitulatif"
            checked={query.data.recapitulatifQuotidien}
            disabled={update.isPending}
            label={RAPPELS_TEXT.toggle}
            data-testid="rappels-switch"
            onChange={(checked) => update.mutate({ recapitulatifQuotidien: checked })}
          />
        </>
      )}
    </ConfigurationSection>
  );
}
