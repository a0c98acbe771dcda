import { type Database } from '../client';
import { syncBusinessDays } from '../due-days';
import { seedGeography } from './geo';
import { seedReference } from './reference';

/**
 * Reference lists, the internal partner, the geography and the business days. Idempotent and cheap on a seeded database
 * (a few conflict-ignoring inserts and three counts), because the server runs it at every start.
 */
export async function seed(db: Database): Promise<void> {
  await seedReference(db);
  await seedGeography(db);
  // The business-day ordinals behind every due day (docs/decisions/0032), and the due days when they change.
  await syncBusinessDays(db);
}
