import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useToast } from '#web/components/ui/toast';
import { serverMessage } from '#web/lib/errors';
import { isQueued, QUEUED_MESSAGE } from '#web/lib/offline/queued';
import { useTRPC } from '#web/lib/trpc';
import { TOASTS } from '../labels';
import type { ReportVersion } from './edit-conflict';
import { locationValuesFrom, sameLocation, toLocationInput, type LocationValues } from './location-values';

/**
 * The Localisation card's state, held by the page so that its changes count as unsaved changes too
 * (banner, leave dialog) and the page's Save button stores them with the rest. `version` is the report's
 * version the page's form stands on: the save sends it and, once accepted, moves it by one as the server
 * did (docs/decisions/0047-edit-conflicts.md).
 */
export function useLocationEditor(code: string, version: ReportVersion) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const query = useQuery(trpc.signalements.localisation.queryOptions({ code }));
  const [draft, setDraft] = useState<LocationValues | null>(null);
  // A location kept in the outbox (docs/decisions/0048-offline-store.md) stands as the saved one until the
  // server's next answer (read again once the outbox has sent it).
  const [queued, setQueued] = useState<{ values: LocationValues; since: number } | null>(null);
  const initial =
    queued && query.dataUpdatedAt <= queued.since ? queued.values : locationValuesFrom(query.data);
  const values = draft ?? initial;
  const dirty = draft !== null && !sameLocation(draft, initial);

  useEffect(() => {
    if (query.isError) toast.error(TOASTS.locationLoadFailed);
  }, [query.isError, toast]);

  const mutation = useMutation(trpc.signalements.updateLocalisation.mutationOptions());

  /** Stores the draft; resolves false (after the §8 toast) when the server refuses it. */
  const save = async (): Promise<boolean> => {
    if (!draft || !dirty) return true;
    const expectedVersion = version.read();
    try {
      const saved = await mutation.mutateAsync({ ...toLocationInput(code, draft), expectedVersion });
      version.set(expectedVersion + 1);
      queryClient.setQueryData(trpc.signalements.localisation.queryKey({ code }), saved);
      setDraft(null);
      toast.success(TOASTS.locationUpdated);
      return true;
    } catch (error) {
      if (isQueued(error)) {
        // Applied in order after the page's other changes, it moves the report one version on.
        version.set(expectedVersion + 1);
        setQueued({ values: draft, since: query.dataUpdatedAt });
        setDraft(null);
        toast.info(QUEUED_MESSAGE);
        return true;
      }
      // A report changed meanwhile (409) says so; the draft stays for the user to save again.
      toast.error(TOASTS.updateFailed, { description: serverMessage(error, '') || undefined });
      return false;
    }
  };

  return { query, values, setValues: setDraft, dirty, save, saving: mutation.isPending };
}

export type LocationEditor = ReturnType<typeof useLocationEditor>;
