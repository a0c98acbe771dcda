import { type Database } from '../client';
import { seedGeography } from './geo';
import { seedReference } from './reference';

/**
 * Reference lists, the internal partner and the geography. Idempotent and cheap on a seeded database
 * (a few conflict-ignoring inserts and three counts), because the server runs it at every start.
 */
export async function seed(db: Database): Promise<void> {
  await seedReference(db);
  await seedGeography(db);
}
