import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import type { SignalementDto } from '#shared/dto/signalements';
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
import { formValuesFrom, isPatchEmpty, patchFrom, type DetailValues } from './detail-form';
import { GeneralCard } from './general-card';
import { HeaderCard } from './header-card';
import { HistoriquePanel } from './historique-panel';
import { LeaveDialog } from './leave-dialog';
import { LocationCard } from './location-card';
import { MailDialog } from './mail-dialog';
import { MetadataCard } from './metadata-card';
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
  const form = useForm<DetailValues>({
    resolver: zodResolver(signalementDetailFormSchema),
    defaultValues: initial,
  });
  const current = useWatch({ control: form.control }) as DetailValues;
  const location = useLocationEditor(code);
  const dirty = canEdit && (!isPatchEmpty(patchFrom(initial, { ...initial, ...current })) || location.dirty);
  const [dismissed, setDismissed] = useState(false);
  if (!dirty && dismissed) setDismissed(false);
  const [mailOpen, setMailOpen] = useState(false);
  const leave = useLeaveGuard(dirty);

  const update = useMutation(trpc.signalements.update.mutationOptions());
  const saving = update.isPending || location.saving;

  const save = form.handleSubmit(async (values) => {
    const patch = patchFrom(initial, values);
    if (!isPatchEmpty(patch)) {
      try {
        const saved = await update.mutateAsync({ code, patch });
        queryClient.setQueryData(trpc.signalements.get.queryKey({ code }), saved);
        const next = formValuesFrom(saved);
        setInitial(next);
        form.reset(next);
        toast.success(TOASTS.updated);
      } catch (error) {
        if (isQueued(error)) {
          // Kept in the outbox (docs/decisions/0048-offline-store.md): the form takes the values as saved.
          setInitial(values);
          form.reset(values);
          toast.info(QUEUED_MESSAGE);
          return;
        }
        toast.error(TOASTS.updateFailed, { description: serverMessage(error, '') || undefined });
      }
    }
    await location.save();
    // Saving reloads the report and its history (§4); the list shows the new values too.
    void queryClient.invalidateQueries({ queryKey: trpc.signalements.get.queryKey({ code }) });
    void queryClient.invalidateQueries({ queryKey: trpc.signalements.historique.queryKey({ code }) });
    void queryClient.invalidateQueries({ queryKey: trpc.signalements.list.queryKey() });
  });

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
            <SourcesSection signalement={s} />
            <VictimesSection code={code} canEdit={canEdit} />
            <GeneralCard signalement={s} />
            <LocationCard editor={location} canEdit={canEdit} />
          </div>
          <div className="flex min-w-0 flex-col gap-4">
            <ClassificationPanel signalement={s} />
            <MetadataCard signalement={s} />
            {s.canAssign && <AssigneesCard signalement={s} />}
            <NotesCard code={code} />
            <EvidenceCard code={code} />
            <HistoriquePanel code={code} />
          </div>
        </div>
      </FormProvider>
      <MailDialog open={mailOpen} onClose={() => setMailOpen(false)} code={code} partner={s.partenaire} />
      <LeaveDialog open={leave.leaveOpen} onLeave={leave.confirmLeave} onStay={leave.cancelLeave} />
    </div>
  );
}
