// The statements that fill signalement_day_counts from the reports: the INSERTs of the migration that
// created it (drizzle/migrations/{sqlite,pg}/0004_day_counts.sql), read from that file so that a
// rebuild (the dashboard benchmark's bulk copy, the tests) runs exactly what the migration ran.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine } from './client';
import { PATHS } from '../paths';

export function dayCountsBackfill(engine: Engine): string[] {
  return readFileSync(join(PATHS.migrations[engine], '0004_day_counts.sql'), 'utf8')
    .split('--> statement-breakpoint')
    .map((statement) => statement.replace(/^--.*$/gm, '').trim())
    .filter((statement) => statement.startsWith('INSERT INTO'));
}
