// The statements that fill signalement_day_counts from the reports: the INSERTs of the migration that
// keyed it by business day (drizzle/migrations/{sqlite,pg}/*_business_calendar.sql), read from that file
// so that a rebuild (a change of APP_TIMEZONE, the dashboard benchmark's bulk copy, the tests) runs
// exactly what the migration ran.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine } from './client';
import { PATHS } from '../paths';

const FILES: Record<Engine, string> = { sqlite: '0009_business_calendar.sql', postgres: '0007_business_calendar.sql' };

export function dayCountsBackfill(engine: Engine): string[] {
  return readFileSync(join(PATHS.migrations[engine], FILES[engine]), 'utf8')
    .split('--> statement-breakpoint')
    .map((statement) => statement.replace(/^--.*$/gm, '').trim())
    .filter((statement) => /^INSERT INTO [`"]signalement_day_counts[`"]/.test(statement));
}
