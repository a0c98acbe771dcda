import type { AuteurDto } from '#shared/dto/signalements';
import { useTRPC } from '#web/lib/trpc';
import { AuteurDialog } from './auteur-form';
import { PersonSection } from './person-section';
import { usePeopleSection } from './use-people-section';

const T = {
  loadFailed: 'Impossible de charger les auteurs.',
  added: 'Auteur ajouté.',
  updated: 'Auteur mis à jour.',
  deleted: 'Auteur supprimé.',
};

export function AuteursSection({ code, canEdit }: { code: string; canEdit: boolean }) {
  const trpc = useTRPC();
  const { section, dialog } = usePeopleSection({
    code,
    list: trpc.auteurs.list.queryOptions({ signalement: code }),
    items: (list) => list,
    router: trpc.auteurs,
    texts: T,
  });
  return (
    <>
      <PersonSection<AuteurDto>
        {...section}
        title="Auteurs Présumés"
        canEdit={canEdit}
        emptyText="Aucun auteur présumé."
        describe={(a) => ({ name: a.nomPrenom, details: [a.fonction, a.description] })}
        data-testid="auteurs-section"
      />
      <AuteurDialog {...dialog} />
    </>
  );
}
