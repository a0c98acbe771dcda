import { NETWORK_ERROR_MESSAGE } from './errors';

// The server's own words (server/errors.ts MESSAGES) for the statuses a download can meet, so a proxy's
// page or an empty body still reads in French: never « Erreur HTTP: 500 » alone, which tells the user
// nothing. The spec's 'Erreur HTTP: {status}' (§8, export) follows the reason, for whoever reports the fault.
const INTERNAL = 'Une erreur interne est survenue. Veuillez réessayer plus tard.';
const UNAVAILABLE = 'Service momentanément indisponible, réessayez dans quelques instants.';
const FRENCH_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'Requête invalide.',
  401: 'Authentification requise.',
  403: "Vous n'avez pas les droits nécessaires pour cette action.",
  404: 'Ressource introuvable.',
  408: 'La requête a mis trop de temps à arriver.',
  413: 'Requête trop volumineuse.',
  429: 'Trop de requêtes. Veuillez patienter avant de réessayer.',
  500: INTERNAL,
  502: UNAVAILABLE,
  503: UNAVAILABLE,
  504: 'Le serveur met trop de temps à répondre. Veuillez réessayer dans un instant.',
};

/** The French reason of an HTTP failure status, for an answer that carries no message of its own. */
export function httpStatusMessage(status: number): string {
  return FRENCH_BY_STATUS[status] ?? (status >= 500 ? INTERNAL : 'La requête a été refusée par le serveur.');
}

/**
 * The French message of a failed REST answer: the facade's `{ status, message }` body when there is one
 * (the server writes it in French), else the reason of its status.
 */
export async function responseFailureMessage(response: Response): Promise<string> {
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') {
      const message = body.message.trim();
      if (message) return message;
    }
  } catch {
    // Not JSON (an empty body, a proxy's page): the status says it.
  }
  return `${httpStatusMessage(response.status)} (${httpStatusLine(response.status)})`;
}

/** The spec's message for a failed answer (§8): 'Erreur HTTP: {status}'. */
export function httpStatusLine(status: number): string {
  return `Erreur HTTP: ${status}`;
}

/**
 * The message to show for an error thrown while fetching or reading an answer: its own for a DownloadError
 * (French, ours), the network message for the browser's TypeError ('Failed to fetch', 'network error': a
 * lost connection, in English), and undefined for anything else (the toast then says 'Erreur inconnue').
 */
export function downloadFailureMessage(error: unknown): string | undefined {
  if (error instanceof DownloadError) return error.message;
  if (error instanceof TypeError) return NETWORK_ERROR_MESSAGE;
  return undefined;
}

/** A failed download whose message is French and meant for the user. */
export class DownloadError extends Error {
  override name = 'DownloadError';
}

/** Throws a DownloadError with the French message of a failed answer; returns the answer when it is ok. */
export async function ensureOk(response: Response): Promise<Response> {
  if (!response.ok) throw new DownloadError(await responseFailureMessage(response));
  return response;
}
