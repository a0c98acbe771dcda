import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OTHERS_CODE } from '#shared/constants';
import type { SignalementDto, SourceDto } from '#shared/dto/signalements';
import { Switch } from '#web/components/ui/switch';
import { useToast } from '#web/components/ui/toast';
import { anonymityContext } from '#web/lib/offline/procedures';
import { isQueued, QUEUED_MESSAGE } from '#web/lib/offline/queued';
import { useTRPC } from '#web/lib/trpc';
import { serverMessage } from '#web/lib/errors';
import { YesNo } from '../detail/detail-card';
import type { ReportVersion } from '../detail/edit-conflict';
import { TOASTS } from '../labels';
import { PersonSection } from './person-section';
import { SourceDialog } from './source-form';
import { usePeopleSection } from './use-people-section';

const T = {
  loadFailed: 'Impossible de charger les sources.',
  added: 'Source ajoutée.',
  updated: 'Source mise à jour.',
  deleted: 'Source supprimée.',
};

const canauxText = (s: SourceDto) =>
  s.canaux
    .map((c) =>
      c.code === OTHERS_CODE && s.autreCanal ? `${c.designation} : ${s.autreCanal}` : c.designation,
    )
    .join(', ');

/** What a user without the need to know sees of an anonymous report's sources (docs/decisions/0015). */
export const protectedSourcesText = (n: number) =>
  `${n} source(s) protégée(s) — seuls le créateur du signalement, les personnes assignées et les administrateurs peuvent les consulter.`;

/**
 * Sources, hidden while the report is anonymous; the switch saves at once (§4). A user who may not
 * edit an anonymous report receives only the number of its sources from the server, and sees that.
 */
export function SourcesSection({
  signalement,
  version,
}: {
  signalement: SignalementDto;
  /** The version the page's form stands on (docs/decisions/0047-edit-conflicts.md), sent and moved on. */
  version?: ReportVersion;
}) {
  const { code, canEdit, isAnonyme } = signalement;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const { list, section, dialog, refresh } = usePeopleSection({
    code,
    list: trpc.sources.list.queryOptions({ signalement: code }),
    items: (list) => list.sources,
    router: trpc.sources,
    texts: T,
    // A source of an anonymous report is never kept on the device (docs/decisions/0048-offline-store.md).
    createContext: anonymityContext(isAnonyme),
  });
  const anonymous = useMutation(
    trpc.signalements.update.mutationOptions({
      onSuccess(saved) {
        version?.set(saved.version);
        queryClient.setQueryData(trpc.signalements.get.queryKey({ code }), saved);
        toast.success(saved.isAnonyme ? TOASTS.anonymousOn : TOASTS.anonymousOff);
        refresh();
      },
      onError: (error, sent) => {
        // Kept in the outbox: applied, it moves the report one version on (as the page's save does).
        if (isQueued(error)) {
          if (sent.expectedVersion !== undefined) version?.set(sent.expectedVersion + 1);
          toast.info(QUEUED_MESSAGE);
          return;
        }
        toast.error(TOASTS.anonymousFailed, { description: serverMessage(error, '') || undefined });
      },
    }),
  );

  const switchOrValue = canEdit ? (
    <Switch
      label="Anonyme"
      checked={anonymous.isPending ? !isAnonyme : isAnonyme}
      disabled={anonymous.isPending}
      onChange={(checked) =>
        anonymous.mutate({ code, patch: { isAnonyme: checked }, expectedVersion: version?.read() })
      }
      data-testid="anonymous-switch"
    />
  ) : (
    <span className="flex items-center gap-2 text-sm" data-testid="anonymous-value">
      Anonyme : <YesNo value={isAnonyme} />
    </span>
  );

  return (
    <>
      <PersonSection<SourceDto>
        title="Sources"
        {...section}
        canEdit={canEdit}
        emptyText="Aucune source."
        describe={(s) => ({
          name: s.nomPrenom || 'Source sans nom',
          details: [s.contact, canauxText(s), s.description],
        })}
        headerExtra={switchOrValue}
        {...(isAnonyme && !canEdit ? { items: undefined } : {})}
        body={
          isAnonyme && !canEdit ? (
            <p className="text-sm text-base-content/70" data-testid="sources-protected">
              {list.data ? protectedSourcesText(list.data.sourcesProtegees) : '…'}
            </p>
          ) : isAnonyme ? (
            <p className="text-sm text-base-content/70" data-testid="sources-hidden">
              Signalement anonyme : les sources ne sont pas affichées.
            </p>
          ) : undefined
        }
        data-testid="sources-section"
      />
      <SourceDialog {...dialog} />
    </>
  );
}
