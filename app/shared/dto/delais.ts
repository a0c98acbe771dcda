// Handling deadlines per niveau (docs/decisions/0032-deadlines.md), as both doors answer them.
import type { NiveauDto } from './signalements';

export interface DelaiTraitementDto {
  '@id': string;
  '@type': 'DelaiTraitement';
  niveau: NiveauDto;
  /** Business days from the report's date; null: no deadline for this niveau. */
  jours: number | null;
  updatedAt: string | null;
}
