// What the « Accès API » screen's procedures answer (docs/decisions/0038-partner-api-tokens.md).
import type { ApiTokenScope } from '../constants';

export type JetonState = 'actif' | 'expire' | 'revoque';

export interface JetonDto {
  /** The token's public id (the part after `sig_`): names it on the screen and in revocations. */
  id: string;
  nom: string;
  partenaire: { code: string; designation: string };
  scopes: ApiTokenScope[];
  expiresAt: string;
  createdAt: string;
  createdBy: { code: string; nomPrenom: string };
  revokedAt: string | null;
  lastUsedAt: string | null;
  etat: JetonState;
}

export interface CreatedJeton {
  jeton: JetonDto;
  /** The whole token, shown once: never stored, never sent again. */
  secret: string;
}
