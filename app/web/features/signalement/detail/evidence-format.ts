// How the « Pièces jointes » card writes a file's size, kind and hash (docs/decisions/0033-evidence-files.md).

const oneDecimal = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 });

/**
 * A size in French units of 1000 bytes, as the limits are given (EVIDENCE_MAX_MB): « 820 octets »,
 * « 12,5 Ko », « 1,5 Mo », « 2 Go ».
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} octet${bytes > 1 ? 's' : ''}`;
  const units = ['Ko', 'Mo', 'Go'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  // 999,96 Ko would round up to « 1 000 Ko »: one unit up instead.
  if (Number(value.toFixed(1)) >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${oneDecimal.format(value)} ${units[unit]}`;
}

/** The kind of a file from the media type the server detected. */
export function kindOf(type: string): string {
  if (type === 'application/pdf') return 'PDF';
  if (type.startsWith('image/')) return 'Image';
  if (type.startsWith('audio/')) return 'Son';
  if (type.startsWith('video/')) return 'Vidéo';
  return 'Document';
}

/** The first characters of a SHA-256, enough to compare by eye; the whole is one click away. */
export const shortHash = (sha256: string) => `${sha256.slice(0, 12)}…`;
