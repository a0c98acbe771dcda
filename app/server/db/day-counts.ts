// The statements that fill signalement_day_counts from the reports: the INSERTs of the migrations that
// keyed it by business day (drizzle/migrations/{sqlite,pg}/*_business_calendar.sql) and added the partner
// and creator dimensions (*_partner_creator_day_counts.sql), read from those files so that a rebuild (a
// change of APP_TIMEZONE, the benchmarks' bulk copy, the tests) runs exactly what the migrations ran.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine } from './client';
import { PATHS } from '../paths';

const FILES: Record<Engine, string[]> = {
  sqlite: ['0009_business_calendar.sql', '0013_partner_creator_day_counts.sql'],
  postgres: ['0007_business_calendar.sql', '0011_partner_creator_day_counts.sql'],
};

export function dayCountsBackfill(engine: Engine): string[] {
  return FILES[engine].flatMap((file) =>
    readFileSync(join(PATHS.migrations[engine], file), 'utf8')
      .split('--> statement-breakpoint')
      .map((statement) => statement.replace(/^--.*$/gm, '').trim())
      .filter((statement) => /^INSERT INTO [`"]signalement_day_counts[`"]/.test(statement)),
  );
}
