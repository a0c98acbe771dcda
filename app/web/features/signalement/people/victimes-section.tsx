import type { VictimeDto } from '#shared/dto/signalements';
import { useTRPC } from '#web/lib/trpc';
import { PersonSection } from './person-section';
import { usePeopleSection } from './use-people-section';
import { VictimeDialog } from './victime-form';

const T = {
  loadFailed: 'Impossible de charger les victimes.',
  added: 'Victime ajoutée.',
  updated: 'Victime mise à jour.',
  deleted: 'Victime supprimée.',
};

export function VictimesSection({ code, canEdit }: { code: string; canEdit: boolean }) {
  const trpc = useTRPC();
  const { section, dialog } = usePeopleSection({
    code,
    list: trpc.victimes.list.queryOptions({ signalement: code }),
    items: (list) => list,
    router: trpc.victimes,
    texts: T,
  });
  return (
    <>
      <PersonSection<VictimeDto>
        {...section}
        title="Victimes"
        canEdit={canEdit}
        emptyText="Aucune victime."
        describe={(v) => ({ name: v.nomPrenom, details: [v.fonction, v.contact] })}
        data-testid="victimes-section"
      />
      <VictimeDialog {...dialog} />
    </>
  );
}
