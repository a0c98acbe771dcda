// What a change put in the outbox answers its caller (docs/decisions/0048-offline-store.md): an error the
// screens recognise, so none of them waits for an answer or reads a result that does not exist yet; each shows
// « enregistré, en attente d'envoi » and closes as after a save.
import { TRPCClientError } from '@trpc/client';

export const QUEUED_MESSAGE = "Modification enregistrée sur cet appareil, en attente d'envoi.";

export class QueuedOffline extends Error {
  constructor() {
    super(QUEUED_MESSAGE);
    this.name = 'QueuedOffline';
  }
}

/** Whether a mutation's error means « put in the outbox », not a failure. */
export function isQueued(error: unknown): boolean {
  if (error instanceof QueuedOffline) return true;
  return error instanceof TRPCClientError && (error as TRPCClientError<never>).cause instanceof QueuedOffline;
}

/**
 * What a change that may not be kept on the device answers when it cannot reach the server (a source or a
 * note of an anonymous report, offline or on a network failure): nothing was kept; the screen keeps what was
 * typed and shows this French message.
 */
export class NeverKeptOffline extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NeverKeptOffline';
  }
}

/** The French message when a change was refused the outbox (NeverKeptOffline), null otherwise. */
export function neverKeptMessage(error: unknown): string | null {
  const cause =
    error instanceof TRPCClientError ? (error as TRPCClientError<never>).cause : (error as unknown);
  return cause instanceof NeverKeptOffline ? cause.message : null;
}
