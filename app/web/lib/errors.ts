import { TRPCClientError } from '@trpc/client';

/** The tRPC error code (UNAUTHORIZED, FORBIDDEN…) of an error, or null for a network failure or another error. */
export function errorCode(error: unknown): string | null {
  if (error instanceof TRPCClientError) {
    const data: unknown = error.data;
    if (data && typeof data === 'object' && 'code' in data && typeof data.code === 'string') return data.code;
  }
  return null;
}

export const NETWORK_ERROR_MESSAGE =
  'Impossible de joindre le serveur. Vérifiez votre connexion puis réessayez.';

/**
 * The French message the server put in a tRPC error, to be shown as is.
 * A network failure or an error without a server message gives `fallback`.
 */
export function serverMessage(error: unknown, fallback: string): string {
  if (error instanceof TRPCClientError) {
    if (errorCode(error) === null) return NETWORK_ERROR_MESSAGE;
    const message = error.message.trim();
    return message.length > 0 ? message : fallback;
  }
  return fallback;
}
