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
