// Which files a report accepts (docs/decisions/0033-evidence-files.md): the type is read from the content by
// file-type (magic bytes, and the entries of a zip for office documents), never from the name or the
// browser's claim. Everything else is refused with a French 415.
import { fileTypeFromBuffer } from 'file-type';
import { HttpError } from '#server/errors';

/** file-type's extensions accepted; the media type it reports is the one the download sends. */
const ACCEPTED = new Set([
  // PDF
  'pdf',
  // images
  'jpg',
  'png',
  'gif',
  'webp',
  'heic',
  // sound
  'mp3',
  'm4a',
  'aac',
  'ogg',
  'opus',
  'wav',
  'amr',
  // video
  'mp4',
  'mov',
  'webm',
  '3gp',
  // office documents (Office Open XML and OpenDocument)
  'docx',
  'xlsx',
  'pptx',
  'odt',
  'ods',
  'odp',
]);

export const UNSUPPORTED_TYPE_MESSAGE =
  "Type de fichier non accepté. Sont acceptés : PDF ; images JPEG, PNG, GIF, WebP, HEIC ; sons MP3, M4A, AAC, OGG, Opus, WAV, AMR ; vidéos MP4, MOV, WebM, 3GP ; documents Word, Excel, PowerPoint (.docx, .xlsx, .pptx) et OpenDocument (.odt, .ods, .odp). Le type est reconnu d'après le contenu du fichier, pas d'après son nom.";

/**
 * The media type of a file from its first bytes (a whole first block: enough for file-type to walk a zip's
 * first entries), or a 415 when it is not one of the accepted types.
 */
export async function acceptedType(head: Uint8Array): Promise<string> {
  const found = await fileTypeFromBuffer(head);
  if (!found || !ACCEPTED.has(found.ext)) throw new HttpError(415, UNSUPPORTED_TYPE_MESSAGE);
  return found.mime;
}
