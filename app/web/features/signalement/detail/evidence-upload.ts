// Sends one file to a report as the server expects it (docs/decisions/0033-evidence-files.md): the raw bytes as
// application/octet-stream, the name percent-encoded in X-Nom-Fichier, one Idempotency-Key per file (a retry of
// the same choice sends the same key). XMLHttpRequest rather than fetch: only it reports the upload's progress.
import type { EvidenceDto } from '#shared/dto/evidence';
import { NETWORK_ERROR_MESSAGE } from '#web/lib/errors';

export const UPLOAD_FAILED = "Échec de l'envoi du fichier.";

export class UploadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UploadError';
  }
}

export function uploadEvidence(
  report: string,
  file: File,
  idempotencyKey: string,
  onProgress: (sent: number, total: number) => void,
): Promise<EvidenceDto> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/signalements/${encodeURIComponent(report)}/pieces-jointes`);
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    xhr.setRequestHeader('x-nom-fichier', encodeURIComponent(file.name));
    xhr.setRequestHeader('idempotency-key', idempotencyKey);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (event) =>
      onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onload = () => {
      const body = xhr.response as { message?: unknown } | null;
      if (xhr.status === 201) resolve(body as unknown as EvidenceDto);
      else
        reject(
          new UploadError(typeof body?.message === 'string' && body.message ? body.message : UPLOAD_FAILED),
        );
    };
    // A refusal while the body is still being sent (413) may end the connection before the answer is read.
    xhr.onerror = () => reject(new UploadError(NETWORK_ERROR_MESSAGE));
    xhr.send(file);
  });
}
