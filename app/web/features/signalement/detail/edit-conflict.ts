// An edit conflict as the detail screen shows it (docs/decisions/0047-edit-conflicts.md): the 409 of a save
// over a report changed since it was opened, its current version and, per field, the two values in words.
import { TRPCClientError } from '@trpc/client';
import type { EditConflictDto } from '#shared/dto/edit-conflict';
import { EMPTY_VALUE } from '../labels';
import { fieldLabel } from './historique-format';

export type EditConflict = Pick<EditConflictDto, 'version' | 'champs'>;

/** The conflict a tRPC error carries (error.data.details of a CONFLICT), or null for any other error. */
export function editConflictOf(error: unknown): EditConflict | null {
  if (!(error instanceof TRPCClientError)) return null;
  const data = error.data as { code?: unknown; details?: Partial<EditConflict> } | undefined;
  const details = data?.code === 'CONFLICT' ? data.details : undefined;
  if (!details || typeof details.version !== 'number' || !Array.isArray(details.champs)) return null;
  return { version: details.version, champs: details.champs };
}

/** Per field naming a reference (niveau, statut, subjects…): code → designation. */
export type Designations = Partial<Record<string, ReadonlyMap<string, string>>>;

/** One value in words: Oui / Non, « Non renseigné » when empty, a reference by its designation. */
export function conflictValue(value: unknown, names: ReadonlyMap<string, string> = new Map()): string {
  if (value === null || value === undefined || value === '') return EMPTY_VALUE;
  if (typeof value === 'boolean') return value ? 'Oui' : 'Non';
  if (Array.isArray(value))
    return value.length === 0 ? EMPTY_VALUE : value.map((v) => conflictValue(v, names)).join(', ');
  if (typeof value === 'string') return names.get(value) ?? value;
  return JSON.stringify(value);
}

export interface ConflictRow {
  champ: string;
  label: string;
  votre: string;
  actuelle: string;
}

/** The dialog's rows: each field the save sent, its label, the user's value and the server's. */
export const conflictRows = (conflict: EditConflict, names: Designations): ConflictRow[] =>
  conflict.champs.map((c) => ({
    champ: c.champ,
    label: fieldLabel(c.champ),
    votre: conflictValue(c.votreValeur, names[c.champ]),
    actuelle: conflictValue(c.valeurActuelle, names[c.champ]),
  }));

/**
 * The report's version the detail page's form stands on, shared by the page's writers (the form, the
 * location card, the anonymous switch): each sends it and, once accepted, moves it to the server's.
 */
export class ReportVersion {
  constructor(private value: number) {}
  read(): number {
    return this.value;
  }
  set(value: number): void {
    this.value = value;
  }
}
