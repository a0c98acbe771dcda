import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import type { SignalementDto } from '#shared/dto/signalements';
import type { SignalementPatchInput } from '#shared/schemas/signalements';
import { signalementDetailFormSchema } from '#shared/schemas/signalements';
import { Breadcrumb } from '#web/components/ui/breadcrumb';
import { useToast } from '#web/components/ui/toast';
import { serverMessage } from '#web/lib/errors';
import { isQueued, QUEUED_MESSAGE } from '#web/lib/offline/queued';
import { useTRPC } from '#web/lib/trpc';
import { TOASTS } from '../labels';
import { AuteursSection } from '../people/auteurs-section';
import { SourcesSection } from '../people/sources-section';
import { VictimesSection } from '../people/victimes-section';
import { AssigneesCard } from './assignees-card';
import { ClassificationPanel } from './classification-panel';
import { formValuesFrom, isPatchEmpty, patchFrom, withPatch, type DetailValues } from './detail-form';
import { editConflictOf, ReportVersion, type EditConflict } from './edit-conflict';
import { EditConflictDialog } from './edit-conflict-dialog';
import { GeneralCard } from './general-card';
import { HeaderCard } from './header-card';
import { HistoriquePanel } from './historique-panel';
import { LeaveDialog } from './leave-dialog';
import { LocationCard } from './location-card';
import { MailDialog } from './mail-dialog';
import { MetadataCard } from './metadata-card';
import { forgetRedo, peekRedo } from './redo';
import { NotesCard } from './notes-card';
import { EvidenceCard } from './evidence-card';
import { SubjectsCard } from './subjects-card';
import { UnsavedBanner } from './unsaved-banner';
import { useLeaveGuard } from './use-leave-guard';
import { useLocationEditor } from './use-location-editor';

const LIST_PATH = '/signalement/list';

/** The loaded report: its form (clean or dirty against what was loaded, §4), cards and dialogs. */
export function DetailScreen({ signalement: s }: { signalement: SignalementDto }) {
  const { code, canEdit } = s;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [initial, setInitial] = useState<DetailValues>(() => formValuesFrom(s));
  // A change refused as stale in the outbox, opened here to be redone: its values, unsaved, over these.
  const [redo] = useState(() => peekRedo(code));
  useEffect(() => forgetRedo(code), [code]);
  const form = useForm<DetailValues>({
    resolver: zodResolver(signalementDetailFormSchema),
    defaultValues: redo ? withPatch(initial, redo) : initial,
  });
  const current = useWatch({ control: form.control }) as DetailValues;
  // The report's version that `initial` stands on: every save sends it, and a save of someone else's
  // change since is refused (docs/decisions/0047-edit-conflicts.md). The location card and the anonymous
  // switch send it too and move it on, so that the page's own saves never conflict with each other.
  const [version] = useState(() => new ReportVersion(s.version));
  const location = useLocationEditor(code, version);
  const [conflict, setConflict] = useState<{ details: EditConflict; patch: SignalementPatchInput } | null>(
    null,
  );
  const [resolving, setResolving] = useState(false);
  const dirty = canEdit && (!isPatchEmpty(patchFrom(initial, { ...initial, ...current })) || location.dirty);
  const [dismissed, setDismissed] = useState(false);
  if (!dirty && dismissed) setDismissed(false);
  const [mailOpen, setMailOpen] = useState(false);
  const leave = useLeaveGuard(dirty);

  const update = useMutation(trpc.signalements.update.mutationOptions());
  const saving = update.isPending || location.saving;

  // Saving reloads the report and its history (§4); the list shows the new values too.
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.signalements.get.queryKey({ code }) });
    void queryClient.invalidateQueries({ queryKey: trpc.signalements.historique.queryKey({ code }) });
    void queryClient.invalidateQueries({ queryKey: trpc.signalements.list.queryKey() });
  };
  const showSaved = (saved: SignalementDto) => {
    version.set(saved.version);
    queryClient.setQueryData(trpc.signalements.get.queryKey({ code }), saved);
    const next = formValuesFrom(saved);
    setInitial(next);
    form.reset(next);
    toast.success(TOASTS.updated);
  };
  /**
   * Sends the patch from the version the form stands on; false when the report changed meanwhile, 'queued'
   * when it went to the outbox (docs/decisions/0048-offline-store.md).
   */
  const send = async (patch: SignalementPatchInput): Promise<boolean | 'queued'> => {
    const expectedVersion = version.read();
    try {
      showSaved(await update.mutateAsync({ code, patch, expectedVersion }));
      return true;
    } catch (error) {
      if (isQueued(error)) {
        // Kept in the outbox: the form takes the values as saved. Applied, the change moves the report one
        // version on, so a second change queued after it states that version (replayed in order, it must
        // not conflict with the first); anyone else's change in between still conflicts.
        const values = form.getValues();
        version.set(expectedVersion + 1);
        setInitial(values);
        form.reset(values);
        toast.info(QUEUED_MESSAGE);
        return 'queued';
      }
      const details = editConflictOf(error);
      if (details) {
        setConflict({ details, patch });
        return false;
      }
      toast.error(TOASTS.updateFailed, { description: serverMessage(error, '') || undefined });
      return true;
    }
  };

  const save = form.handleSubmit(async (values) => {
    const patch = patchFrom(initial, values);
    // On a conflict the dialog decides; the location waits for the next save. A patch kept in the outbox
    // is followed there by the location (docs/decisions/0048-offline-store.md).
    if (!isPatchEmpty(patch)) {
      const sent = await send(patch);
      if (sent === false) return;
    }
    await location.save();
    refresh();
  });

  // « Écraser avec mes valeurs »: the same patch, from the version the server reported.
  const overwrite = async () => {
    if (!conflict) return;
    setResolving(true);
    version.set(conflict.details.version);
    // Changed again meanwhile: `send` shows the new values in the dialog instead.
    const sent = await send(conflict.patch);
    if (sent !== false) setConflict(null);
    if (sent !== false) {
      await location.save();
      refresh();
    }
    setResolving(false);
  };
  // « Recharger »: the user's values give way to the server's.
  const reload = async () => {
    setResolving(true);
    try {
      const fresh = await queryClient.fetchQuery({
        ...trpc.signalements.get.queryOptions({ code }),
        staleTime: 0,
      });
      version.set(fresh.version);
      const next = formValuesFrom(fresh);
      setInitial(next);
      form.reset(next);
      setConflict(null);
      void queryClient.invalidateQueries({ queryKey: trpc.signalements.historique.queryKey({ code }) });
    } catch (error) {
      toast.error(TOASTS.reportLoadFailed, { description: serverMessage(error, '') || undefined });
    } finally {
      setResolving(false);
    }
  };

  return (
    <div className="flex flex-col gap-4" data-testid="signalement-detail">
      <Breadcrumb items={[{ label: 'Signalements', href: LIST_PATH }, { label: `Détail (${code})` }]} />
      {dirty && !dismissed && (
        <UnsavedBanner
          canSave={canEdit}
          saving={saving}
          onSave={() => void save()}
          onDismiss={() => setDismissed(true)}
        />
      )}
      <HeaderCard
        signalement={s}
        dirty={dirty}
        saving={saving}
        onSave={() => void save()}
        onMail={() => setMailOpen(true)}
      />
      <FormProvider {...form}>
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
          <div className="flex min-w-0 flex-col gap-4 lg:col-span-2">
            <SubjectsCard signalement={s} canEdit={canEdit} />
            <AuteursSection code={code} canEdit={canEdit} />
            <SourcesSection signalement={s} version={version} />
            <VictimesSection code={code} canEdit={canEdit} />
            <GeneralCard signalement={s} />
            <LocationCard editor={location} canEdit={canEdit} />
          </div>
          <div className="flex min-w-0 flex-col gap-4">
            <ClassificationPanel signalement={s} />
            <MetadataCard signalement={s} />
            {s.canAssign && <AssigneesCard signalement={s} />}
            <NotesCard code={code} anonymous={s.isAnonyme} />
            <EvidenceCard code={code} />
            <HistoriquePanel code={code} />
          </div>
        </div>
      </FormProvider>
      <MailDialog open={mailOpen} onClose={() => setMailOpen(false)} code={code} partner={s.partenaire} />
      <EditConflictDialog
        conflict={conflict?.details ?? null}
        signalement={s}
        busy={resolving}
        onReload={() => void reload()}
        onOverwrite={() => void overwrite()}
      />
      <LeaveDialog open={leave.leaveOpen} onLeave={leave.confirmLeave} onStay={leave.cancelLeave} />
    </div>
  );
}
