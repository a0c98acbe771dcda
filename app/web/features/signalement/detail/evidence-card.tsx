// « Pièces jointes » of a report (docs/decisions/0033-evidence-files.md): each file with its name, kind, size,
// who sent it and when, and its SHA-256 (chain of custody); a download link (always an attachment, the server
// says so), an upload button with its progress, and delete while the server allows it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { EVIDENCE_DELETE_MINUTES } from '#shared/constants';
import type { EvidenceDto } from '#shared/dto/evidence';
import { evidenceNameSchema } from '#shared/schemas/evidence';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog';
import { Loading } from '#web/components/ui/loading';
import { DownloadIcon, PlusIcon, TrashIcon } from '#web/components/ui/more-icons';
import { useToast } from '#web/components/ui/toast';
import { serverMessage } from '#web/lib/errors';
import { formatDateTime } from '#web/lib/format';
import { useTRPC } from '#web/lib/trpc';
import { useReportRefresh } from '../people/use-report-refresh';
import { DetailCard } from './detail-card';
import { formatBytes, kindOf, shortHash } from './evidence-format';
import { uploadEvidence, UploadError, UPLOAD_FAILED } from './evidence-upload';

export const EVIDENCE_TEXT = {
  title: 'Pièces jointes',
  empty: 'Aucune pièce jointe.',
  loadFailed: 'Impossible de charger les pièces jointes.',
  add: 'Joindre un fichier',
  sending: (percent: number) => `Envoi… ${percent} %`,
  added: 'Fichier joint.',
  deleted: 'Pièce jointe supprimée.',
  deleteFailed: 'Échec de la suppression.',
  download: 'Télécharger',
  delete: 'Supprimer la pièce jointe',
  confirmTitle: 'Supprimer cette pièce jointe ?',
  confirmText:
    "Le fichier sera effacé. L'historique du signalement gardera son nom et son empreinte SHA-256.",
  hash: 'Empreinte SHA-256',
  showHash: "Afficher l'empreinte complète",
  hideHash: "Masquer l'empreinte complète",
  copyHash: "Copier l'empreinte",
  copy: 'Copier',
  copied: 'Empreinte copiée.',
  hint: (maxFile: string, left: string) =>
    `PDF, images, sons, vidéos ou documents bureautiques ; ${maxFile} au plus par fichier, ${left} encore disponibles pour ce signalement. Vous pourrez supprimer un fichier envoyé pendant ${EVIDENCE_DELETE_MINUTES} minutes.`,
  masked: (n: number) =>
    `${n} pièce${n > 1 ? 's' : ''} jointe${n > 1 ? 's' : ''} masquée${n > 1 ? 's' : ''} : réservées au créateur du signalement anonyme, à ses assignés et aux administrateurs.`,
  tooLarge: (max: string) => `Le fichier dépasse la taille maximale autorisée (${max} par fichier).`,
} as const;

export function EvidenceCard({ code }: { code: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const refreshReport = useReportRefresh(code);
  const listOptions = trpc.piecesJointes.list.queryOptions({ signalement: code });
  const list = useQuery(listOptions);
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<EvidenceDto | null>(null);
  const remove = useMutation(
    trpc.piecesJointes.delete.mutationOptions({
      onError: (error) =>
        toast.error(EVIDENCE_TEXT.deleteFailed, { description: serverMessage(error, '') || undefined }),
    }),
  );

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: listOptions.queryKey });
    refreshReport();
  };

  const send = async (file: File) => {
    const limits = list.data?.limites;
    const name = evidenceNameSchema.safeParse(file.name);
    if (!name.success) return toast.error(UPLOAD_FAILED, { description: name.error.issues[0]?.message });
    if (limits && file.size > limits.fichier)
      return toast.error(UPLOAD_FAILED, { description: EVIDENCE_TEXT.tooLarge(formatBytes(limits.fichier)) });
    setProgress(0);
    try {
      await uploadEvidence(code, file, crypto.randomUUID(), (sent, total) =>
        setProgress(total > 0 ? Math.min(100, Math.round((sent / total) * 100)) : 0),
      );
      toast.success(EVIDENCE_TEXT.added);
      refresh();
    } catch (error) {
      toast.error(UPLOAD_FAILED, { description: error instanceof UploadError ? error.message : undefined });
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync({ code: deleting.code });
      toast.success(EVIDENCE_TEXT.deleted);
      refresh();
    } catch {
      // The toast said why (onError).
    } finally {
      setDeleting(null);
    }
  };

  const data = list.data;
  return (
    <DetailCard
      title={
        <span>
          {EVIDENCE_TEXT.title}
          {data && (
            <span className="ml-2 text-sm font-normal text-base-content/70">
              ({data.piecesJointes.length + data.masquees})
            </span>
          )}
        </span>
      }
      data-testid="evidence-card"
    >
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <p className="text-sm text-error">{EVIDENCE_TEXT.loadFailed}</p>
      ) : (
        <>
          {data!.masquees > 0 && (
            <p className="text-sm text-base-content/70" data-testid="evidence-masquees">
              {EVIDENCE_TEXT.masked(data!.masquees)}
            </p>
          )}
          {data!.piecesJointes.length === 0 && data!.masquees === 0 ? (
            <p className="text-sm text-base-content/70">{EVIDENCE_TEXT.empty}</p>
          ) : (
            <ul className="flex flex-col divide-y divide-base-300" aria-label={EVIDENCE_TEXT.title}>
              {data!.piecesJointes.map((file) => (
                <EvidenceItem key={file.code} file={file} onDelete={() => setDeleting(file)} />
              ))}
            </ul>
          )}
          {data!.peutAjouter && (
            <div className="flex flex-col gap-2">
              <input
                ref={input}
                type="file"
                className="hidden"
                aria-hidden="true"
                tabIndex={-1}
                data-testid="evidence-input"
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  if (file) void send(file);
                }}
              />
              <p className="text-xs text-base-content/70">
                {EVIDENCE_TEXT.hint(
                  formatBytes(data!.limites.fichier),
                  formatBytes(Math.max(0, data!.limites.signalement - data!.limites.utilise)),
                )}
              </p>
              <div className="flex items-center justify-end gap-2">
                {progress !== null && (
                  <progress
                    className="progress progress-primary w-32"
                    value={progress}
                    max={100}
                    aria-label={EVIDENCE_TEXT.sending(progress)}
                  />
                )}
                <button
                  type="button"
                  className="btn btn-sm btn-primary"
                  disabled={progress !== null}
                  onClick={() => input.current?.click()}
                  data-testid="evidence-add"
                >
                  {progress !== null ? (
                    <>
                      <span className="loading loading-spinner loading-xs" aria-hidden="true" />
                      {EVIDENCE_TEXT.sending(progress)}
                    </>
                  ) : (
                    <>
                      <PlusIcon />
                      {EVIDENCE_TEXT.add}
                    </>
                  )}
                </button>
              </div>
            </div>
          )}
        </>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={EVIDENCE_TEXT.confirmTitle}
        description={EVIDENCE_TEXT.confirmText}
        confirmLabel="Supprimer"
        tone="danger"
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
        data-testid="evidence-delete-dialog"
      />
    </DetailCard>
  );
}

/** One file: name and download, kind, size, who and when, its hash shortened (expand, copy), delete. */
function EvidenceItem({ file, onDelete }: { file: EvidenceDto; onDelete: () => void }) {
  const toast = useToast();
  const [fullHash, setFullHash] = useState(false);
  const copy = () =>
    void navigator.clipboard
      ?.writeText(file.sha256)
      .then(() => toast.success(EVIDENCE_TEXT.copied))
      .catch(() => undefined);
  return (
    <li className="flex flex-col gap-1 py-2.5" data-testid="evidence-item">
      <div className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <a
            className="link link-hover text-sm font-medium break-all"
            href={file.contenu}
            data-testid="evidence-download"
            title={EVIDENCE_TEXT.download}
          >
            {file.nom}
          </a>
          <p className="text-xs text-base-content/70">
            {kindOf(file.type)} · {formatBytes(file.taille)} · {file.auteur.nomPrenom} ·{' '}
            <time dateTime={file.createdAt}>{formatDateTime(file.createdAt)}</time>
          </p>
        </div>
        <div className="flex shrink-0 gap-1">
          <a
            className="btn btn-ghost btn-sm btn-square"
            href={file.contenu}
            aria-label={`${EVIDENCE_TEXT.download} ${file.nom}`}
            title={EVIDENCE_TEXT.download}
          >
            <DownloadIcon />
          </a>
          {file.supprimable && (
            <button
              type="button"
              className="btn btn-ghost btn-sm btn-square text-error"
              aria-label={EVIDENCE_TEXT.delete}
              title={EVIDENCE_TEXT.delete}
              data-testid="evidence-delete"
              onClick={onDelete}
            >
              <TrashIcon />
            </button>
          )}
        </div>
      </div>
      <p className="flex flex-wrap items-center gap-1 text-xs text-base-content/70">
        <span>{EVIDENCE_TEXT.hash} :</span>
        <code className="font-mono break-all" data-testid="evidence-hash">
          {fullHash ? file.sha256 : shortHash(file.sha256)}
        </code>
        <button
          type="button"
          className="btn btn-ghost btn-xs"
          aria-expanded={fullHash}
          onClick={() => setFullHash((v) => !v)}
        >
          {fullHash ? EVIDENCE_TEXT.hideHash : EVIDENCE_TEXT.showHash}
        </button>
        <button type="button" className="btn btn-ghost btn-xs" title={EVIDENCE_TEXT.copyHash} onClick={copy}>
          {EVIDENCE_TEXT.copy}
        </button>
      </p>
    </li>
  );
}
