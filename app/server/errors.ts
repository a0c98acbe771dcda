// Typed domain errors thrown by services. server/http/errors.ts and server/trpc/init.ts map them to
// HTTP statuses and tRPC codes; the message is French and shown to the user as is.

export type DomainErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_many_requests'
  /**
   * The server cannot answer right now: the database cannot be reached (a lost connection, a restart), or
   * a read passed its deadline (READ_JOB_TIMEOUT_SECONDS). Try again shortly.
   */
  | 'unavailable'
  /**
   * A stored value that fails its integrity check (an encrypted note's text altered, copied from another row,
   * or sealed with another key): the request was right, the data is not; retrying does not help.
   */
  | 'unreadable';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/**
 * The domain error behind `error`: itself, or one a library wrapped (Drizzle wraps what a query throws, such
 * as a read past its deadline, in a DrizzleQueryError whose cause it is).
 */
export function domainErrorOf(error: unknown): DomainError | null {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof DomainError) return e;
  }
  return null;
}

/**
 * What a domain error adds to its answer besides the status and the message (`details.answer`): the REST
 * body carries its fields, a tRPC error its `data.details` (an edit conflict's values, decision 0047).
 */
export function answerFields(error: DomainError): Record<string, unknown> | undefined {
  const answer = error.details?.answer;
  return answer && typeof answer === 'object' ? (answer as Record<string, unknown>) : undefined;
}

/** A refusal at the HTTP layer that no domain kind names (415 for a body that is not JSON). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    // Its name tells it apart across a thread boundary (server/db/threads/errors.ts).
    this.name = 'HttpError';
  }
}

export const HTTP_STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many_requests: 429,
  unavailable: 503,
  unreadable: 422,
};

export const TRPC_CODE = {
  invalid: 'BAD_REQUEST',
  unauthenticated: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  not_found: 'NOT_FOUND',
  conflict: 'CONFLICT',
  too_many_requests: 'TOO_MANY_REQUESTS',
  unavailable: 'SERVICE_UNAVAILABLE',
  unreadable: 'UNPROCESSABLE_CONTENT',
} as const satisfies Record<DomainErrorKind, string>;

export const MESSAGES = {
  unauthenticated: 'Authentification requise.',
  forbidden: "Vous n'avez pas les droits nécessaires pour cette action.",
  notFound: 'Ressource introuvable.',
  invalid: 'Données invalides.',
  internal: 'Une erreur interne est survenue. Veuillez réessayer plus tard.',
  invalidRequest: 'Requête invalide.',
  methodNotAllowed: 'Méthode non autorisée.',
  payloadTooLarge: 'Requête trop volumineuse.',
  uriTooLong: 'Adresse de la requête trop longue.',
  headersTooLarge: 'En-têtes de la requête trop volumineux.',
  requestTimeout: 'La requête a mis trop de temps à arriver.',
  unsupportedMediaType: 'Les données doivent être envoyées en JSON.',
  tooManyRequests: 'Trop de requêtes. Veuillez patienter avant de réessayer.',
  notBatchable: "Cette opération ne peut pas être groupée avec d'autres.",
  forbiddenKey: 'Nom de paramètre non autorisé.',
  forbiddenCharacter: 'Les données contiennent un caractère non autorisé.',
  tooDeep: 'Les données sont trop imbriquées.',
  crossSite: "Requête refusée : elle ne provient pas de l'application.",
  readTimeout: 'Le serveur met trop de temps à répondre. Veuillez réessayer dans un instant.',
  twoFactorRequired: 'Double authentification requise. Saisissez votre code pour continuer.',
  unavailable: 'Service momentanément indisponible, réessayez dans quelques instants.',
} as const;

export const unauthenticated = () => new DomainError('unauthenticated', MESSAGES.unauthenticated);
export const forbidden = (message: string = MESSAGES.forbidden) => new DomainError('forbidden', message);
export const notFound = (message: string = MESSAGES.notFound) => new DomainError('not_found', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const invalid = (message: string, details?: Record<string, unknown>) =>
  new DomainError('invalid', message, details);

/** Seconds a client is told to wait (Retry-After) when the database cannot be reached or a read timed out. */
export const UNAVAILABLE_RETRY_SECONDS = 5;
export const unavailable = () =>
  new DomainError('unavailable', MESSAGES.unavailable, { retryAfterSeconds: UNAVAILABLE_RETRY_SECONDS });
/** A read past READ_JOB_TIMEOUT_SECONDS (server/db/threads/pool.ts): 503, to retry in a moment. */
export const readTimeout = () =>
  new DomainError('unavailable', MESSAGES.readTimeout, { retryAfterSeconds: UNAVAILABLE_RETRY_SECONDS });
