import {
  useMutation,
  useQuery,
  useQueryClient,
  type QueryKey,
  type MutationFunction,
  type MutationKey,
  type UseQueryOptions,
} from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useToast } from '#web/components/ui/toast';
import { serverMessage } from '#web/lib/errors';
import { isQueued, neverKeptMessage, QUEUED_MESSAGE } from '#web/lib/offline/queued';
import { TOASTS } from '../labels';
import { useReportRefresh } from './use-report-refresh';

/** The toasts of one kind of person (spec §8). */
export interface PeopleTexts {
  loadFailed: string;
  added: string;
  updated: string;
  deleted: string;
}

/** What this hook reads of a tRPC mutation procedure (the options also carry the callbacks given). */
interface MutationProcedure<TInput> {
  mutationOptions: (opts: {
    onSuccess: () => void;
    onError: (error: unknown) => void;
    trpc?: { context?: Record<string, unknown> };
  }) => {
    mutationKey?: MutationKey;
    mutationFn?: MutationFunction<unknown, TInput>;
  };
}

/** The mutations of one kind (trpc.auteurs, trpc.sources or trpc.victimes). */
export interface PeopleMutations<TValues> {
  create: MutationProcedure<TValues & { signalement: string }>;
  update: MutationProcedure<{ code: string; data: TValues }>;
  delete: MutationProcedure<{ code: string }>;
}

export interface PeopleSectionOptions<TItem, TList, TValues, TListError, TKey extends QueryKey> {
  /** The report's code. */
  code: string;
  /** The list query of the report's people of this kind. */
  list: UseQueryOptions<TList, TListError, TList, TKey> & { queryKey: TKey };
  /** The people in the list's answer. */
  items: (list: TList) => readonly TItem[];
  router: PeopleMutations<TValues>;
  texts: PeopleTexts;
  /** The tRPC context of the creation (a source's: whether its report is anonymous, web/lib/offline). */
  createContext?: Record<string, unknown>;
}

/**
 * The list, add, edit and delete of one kind of person of a report: loads the list, toasts,
 * then refreshes the list and the report. Returns the props of its section and of its dialog.
 */
export function usePeopleSection<
  TItem extends { code: string },
  TList,
  TValues,
  TListError,
  TKey extends QueryKey,
>({
  code,
  list: listOptions,
  items,
  router,
  texts,
  createContext,
}: PeopleSectionOptions<TItem, TList, TValues, TListError, TKey>) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const refreshReport = useReportRefresh(code);
  const [target, setTarget] = useState<TItem | 'new' | null>(null);
  // Why the open dialog's change could not be saved nor kept (a source of an anonymous report, offline).
  const [notice, setNotice] = useState<string | null>(null);
  const open = (next: TItem | 'new' | null) => {
    setNotice(null);
    setTarget(next);
  };
  const list = useQuery(listOptions);

  useEffect(() => {
    if (list.isError) toast.error(texts.loadFailed);
  }, [list.isError, toast, texts.loadFailed]);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: listOptions.queryKey });
    refreshReport();
  };
  const failed = (error: unknown) => {
    // Kept in the outbox (docs/decisions/0048-offline-store.md): the dialog closes as after a save.
    if (isQueued(error)) {
      toast.info(QUEUED_MESSAGE);
      open(null);
      return;
    }
    // Never kept on the device (docs/decisions/0048-offline-store.md): the dialog stays open with what was typed.
    const neverKept = neverKeptMessage(error);
    if (neverKept) {
      setNotice(neverKept);
      return;
    }
    toast.error(TOASTS.updateFailed, { description: serverMessage(error, '') || undefined });
  };
  const onSaved = (message: string) => () => {
    toast.success(message);
    open(null);
    refresh();
  };
  const create = useMutation(
    router.create.mutationOptions({
      onSuccess: onSaved(texts.added),
      onError: failed,
      ...(createContext ? { trpc: { context: createContext } } : {}),
    }),
  );
  const update = useMutation(
    router.update.mutationOptions({ onSuccess: onSaved(texts.updated), onError: failed }),
  );
  const remove = useMutation(
    router.delete.mutationOptions({
      onSuccess: () => {
        toast.success(texts.deleted);
        refresh();
      },
      onError: () => toast.error(TOASTS.deleteFailed),
    }),
  );

  const submit = (values: TValues) => {
    if (target === 'new') create.mutate({ ...values, signalement: code });
    else if (target) update.mutate({ code: target.code, data: values });
  };

  return {
    list,
    refresh,
    /** Spread on PersonSection. */
    section: {
      items: list.data && items(list.data),
      loading: list.isPending,
      addLabel: 'Ajouter',
      onAdd: () => open('new'),
      onEdit: (item: TItem) => open(item),
      onDelete: (item: TItem) => remove.mutateAsync({ code: item.code }).catch(() => undefined),
    },
    /** Spread on the kind's dialog. */
    dialog: {
      target,
      pending: create.isPending || update.isPending,
      notice,
      onClose: () => open(null),
      onSubmit: submit,
    },
  };
}
