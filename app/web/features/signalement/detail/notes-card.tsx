// « Notes internes » of a report (docs/decisions/0029-internal-notes.md): the thread oldest first, the form
// to add one below it, and edit and delete on the caller's own notes while the server allows them. A note is
// plain text shown as text (white-space: pre-wrap), never HTML.
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { NOTE_EDIT_MINUTES, NOTE_MAX_LENGTH } from '#shared/constants';
import type { NoteDto } from '#shared/dto/notes';
import { noteSchema, type NoteInput } from '#shared/schemas/notes';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog';
import { Form, SubmitButton } from '#web/components/ui/form-actions';
import { TextareaField } from '#web/components/ui/form-field';
import { Loading } from '#web/components/ui/loading';
import { PencilIcon, TrashIcon } from '#web/components/ui/more-icons';
import { useToast } from '#web/components/ui/toast';
import { anonymityContext } from '#web/lib/offline/procedures';
import { isQueued, neverKeptMessage, QUEUED_MESSAGE } from '#web/lib/offline/queued';
import { serverMessage } from '#web/lib/errors';
import { formatDateTime } from '#web/lib/format';
import { useTRPC } from '#web/lib/trpc';
import { useReportRefresh } from '../people/use-report-refresh';
import { DetailCard } from './detail-card';

export const NOTES_TEXT = {
  title: 'Notes internes',
  empty: 'Aucune note interne.',
  loadFailed: 'Impossible de charger les notes internes.',
  newLabel: 'Nouvelle note',
  formLabel: 'Ajouter une note interne',
  editFormLabel: 'Modification de la note',
  hint: `Texte simple, sans mise en forme. Vous pourrez la modifier ou la supprimer pendant ${NOTE_EDIT_MINUTES} minutes.`,
  add: 'Ajouter la note',
  save: 'Enregistrer',
  cancel: 'Annuler',
  edit: 'Modifier la note',
  delete: 'Supprimer la note',
  editLabel: 'Texte de la note',
  edited: 'modifiée',
  added: 'Note ajoutée.',
  updated: 'Note modifiée.',
  deleted: 'Note supprimée.',
  failed: "Échec de l'enregistrement de la note.",
  deleteFailed: 'Échec de la suppression.',
  confirmTitle: 'Supprimer cette note ?',
  confirmText: 'Cette action est irréversible.',
  masked: (n: number) =>
    `${n} note${n > 1 ? 's' : ''} masquée${n > 1 ? 's' : ''} : réservées au créateur du signalement anonyme et aux administrateurs.`,
  limit: `Au plus ${NOTE_MAX_LENGTH} caractères.`,
} as const;

/** The current time, moved every 30 seconds: the edit buttons go away when a note's window closes. */
function useNow(stepMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), stepMs);
    return () => window.clearInterval(id);
  }, [stepMs]);
  return now;
}

export function NotesCard({
  code,
  anonymous,
}: {
  code: string;
  /** Whether the report is anonymous: its notes are then never kept on the device (offline, they wait here). */
  anonymous: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const refreshReport = useReportRefresh(code);
  const listOptions = trpc.notes.list.queryOptions({ signalement: code });
  const list = useQuery(listOptions);
  const now = useNow();
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<NoteDto | null>(null);
  // Why the new note was neither saved nor kept (a note of an anonymous report, offline); its text stays.
  const [notice, setNotice] = useState<string | null>(null);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: listOptions.queryKey });
    refreshReport();
  };
  const failed = (fallback: string) => (error: unknown) => {
    if (!isQueued(error) && !neverKeptMessage(error))
      toast.error(fallback, { description: serverMessage(error, '') || undefined });
  };
  const create = useMutation(
    trpc.notes.create.mutationOptions({
      onError: failed(NOTES_TEXT.failed),
      trpc: { context: anonymityContext(anonymous) },
    }),
  );
  const update = useMutation(trpc.notes.update.mutationOptions({ onError: failed(NOTES_TEXT.failed) }));
  const remove = useMutation(trpc.notes.delete.mutationOptions({ onError: failed(NOTES_TEXT.deleteFailed) }));

  const form = useForm<NoteInput>({ resolver: zodResolver(noteSchema), defaultValues: { texte: '' } });
  const add = form.handleSubmit(async (values) => {
    setNotice(null);
    try {
      await create.mutateAsync({ signalement: code, texte: values.texte });
    } catch (error) {
      setNotice(neverKeptMessage(error));
      // Kept in the outbox (docs/decisions/0048-offline-store.md): it is sent when the link returns.
      if (!isQueued(error)) throw error;
      form.reset({ texte: '' });
      toast.info(QUEUED_MESSAGE);
      return;
    }
    form.reset({ texte: '' });
    toast.success(NOTES_TEXT.added);
    refresh();
  });

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync({ code: deleting.code });
      toast.success(NOTES_TEXT.deleted);
      refresh();
    } catch {
      // The toast said why (onError).
    } finally {
      setDeleting(null);
    }
  };

  const data = list.data;
  const mayChange = (note: NoteDto) => note.modifiable && Date.parse(note.modifiableJusquA) > now;

  return (
    <DetailCard
      title={
        <span>
          {NOTES_TEXT.title}
          {data && (
            <span className="ml-2 text-sm font-normal text-base-content/70">
              ({data.notes.length + data.masquees})
            </span>
          )}
        </span>
      }
      data-testid="notes-card"
    >
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <p className="text-sm text-error">{NOTES_TEXT.loadFailed}</p>
      ) : (
        <>
          {data!.masquees > 0 && (
            <p className="text-sm text-base-content/70" data-testid="notes-masquees">
              {NOTES_TEXT.masked(data!.masquees)}
            </p>
          )}
          {data!.notes.length === 0 && data!.masquees === 0 ? (
            <p className="text-sm text-base-content/70">{NOTES_TEXT.empty}</p>
          ) : (
            <ol className="flex flex-col divide-y divide-base-300" aria-label={NOTES_TEXT.title}>
              {data!.notes.map((note) => (
                <li key={note.code} className="flex flex-col gap-1 py-2.5" data-testid="note-item">
                  <div className="flex items-start gap-2">
                    <p className="min-w-0 flex-1 text-sm">
                      <span className="font-medium">{note.auteur.nomPrenom}</span>
                      <span className="text-base-content/70">
                        {' · '}
                        <time dateTime={note.createdAt}>{formatDateTime(note.createdAt)}</time>
                        {note.updatedAt && ` (${NOTES_TEXT.edited})`}
                      </span>
                    </p>
                    {mayChange(note) && editing !== note.code && (
                      <div className="flex shrink-0 gap-1">
                        <button
                          type="button"
                          className="btn btn-ghost btn-sm btn-square"
                          aria-label={NOTES_TEXT.edit}
                          title={NOTES_TEXT.edit}
                          data-testid="note-edit"
                          onClick={() => setEditing(note.code)}
                        >
                          <PencilIcon />
                        </button>
                        <button
                          type="button"
                          className="btn btn-ghost btn-sm btn-square text-error"
                          aria-label={NOTES_TEXT.delete}
                          title={NOTES_TEXT.delete}
                          data-testid="note-delete"
                          onClick={() => setDeleting(note)}
                        >
                          <TrashIcon />
                        </button>
                      </div>
                    )}
                  </div>
                  {editing === note.code ? (
                    <NoteEditor
                      note={note}
                      pending={update.isPending}
                      onCancel={() => setEditing(null)}
                      onSave={async (texte) => {
                        await update.mutateAsync({ code: note.code, texte });
                        setEditing(null);
                        toast.success(NOTES_TEXT.updated);
                        refresh();
                      }}
                    />
                  ) : (
                    // Plain text: React escapes it, pre-wrap keeps its line breaks (never HTML, never Markdown).
                    <p className="text-sm break-words whitespace-pre-wrap" data-testid="note-text">
                      {note.texte}
                    </p>
                  )}
                </li>
              ))}
            </ol>
          )}
          {data!.peutAjouter && (
            <Form
              label={NOTES_TEXT.formLabel}
              onSubmit={(e) => void add(e).catch(() => undefined)}
              data-testid="note-form"
            >
              <TextareaField
                control={form.control}
                name="texte"
                id="note-new"
                label={NOTES_TEXT.newLabel}
                rows={3}
                maxLength={NOTE_MAX_LENGTH}
              />
              {notice && (
                <p role="alert" className="alert alert-warning alert-soft text-sm" data-testid="note-notice">
                  {notice}
                </p>
              )}
              {/* Beside the field, not as its hint: the kit's hint line does not wrap. */}
              <div className="flex flex-wrap items-start justify-between gap-2">
                <p className="min-w-0 flex-1 text-xs text-base-content/70">{NOTES_TEXT.hint}</p>
                <SubmitButton pending={create.isPending}>{NOTES_TEXT.add}</SubmitButton>
              </div>
            </Form>
          )}
        </>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={NOTES_TEXT.confirmTitle}
        description={NOTES_TEXT.confirmText}
        confirmLabel="Supprimer"
        tone="danger"
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
        data-testid="note-delete-dialog"
      />
    </DetailCard>
  );
}

/** The inline editor of one of the caller's notes. */
function NoteEditor({
  note,
  pending,
  onCancel,
  onSave,
}: {
  note: NoteDto;
  pending: boolean;
  onCancel: () => void;
  onSave: (texte: string) => Promise<void>;
}) {
  const form = useForm<NoteInput>({
    resolver: zodResolver(noteSchema),
    defaultValues: { texte: note.texte },
  });
  const save = form.handleSubmit((values) => onSave(values.texte));
  return (
    <Form
      label={NOTES_TEXT.editFormLabel}
      onSubmit={(e) => void save(e).catch(() => undefined)}
      data-testid="note-edit-form"
    >
      <TextareaField
        control={form.control}
        name="texte"
        id={`note-${note.code}`}
        label={NOTES_TEXT.editLabel}
        rows={3}
        maxLength={NOTE_MAX_LENGTH}
        autoFocus
      />
      <div className="flex justify-end gap-2">
        <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={pending}>
          {NOTES_TEXT.cancel}
        </button>
        <SubmitButton pending={pending}>{NOTES_TEXT.save}</SubmitButton>
      </div>
    </Form>
  );
}
