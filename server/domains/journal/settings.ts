// Thresholds of the alerts on unusual reading, the log's retention, and the public address used in their e-mails. Services
// receive the database, not the configuration: buildApp registers these settings for its database, and a
// database nobody configured (scripts, unit tests of other domains) gets the configuration's defaults.
import { configSchema, type Config } from '../../config';
import type { Database } from '../../db/client';

export interface JournalSettings {
  windowMinutes: number;
  reads: number;
  exportMinRows: number;
  exportShare: number;
  dailyReads: number;
  dailyExportRows: number;
  retentionDays: number;
  publicUrl: string;
}

function settingsOf(config: Config): JournalSettings {
  return {
    windowMinutes: config.ACCESS_ALERT_WINDOW_MINUTES,
    reads: config.ACCESS_ALERT_READS,
    exportMinRows: config.ACCESS_ALERT_EXPORT_MIN_ROWS,
    exportShare: config.ACCESS_ALERT_EXPORT_SHARE,
    dailyReads: config.ACCESS_ALERT_DAILY_READS,
    dailyExportRows: config.ACCESS_ALERT_DAILY_EXPORT_ROWS,
    retentionDays: config.ACCESS_LOG_RETENTION_DAYS,
    publicUrl: config.PUBLIC_URL,
  };
}

const byDatabase = new WeakMap<Database, JournalSettings>();
let defaults: JournalSettings | undefined;

export function configureJournal(db: Database, config: Config): void {
  byDatabase.set(db, settingsOf(config));
}

export function journalSettings(db: Database): JournalSettings {
  const own = byDatabase.get(db);
  if (own) return own;
  defaults ??= settingsOf(configSchema.parse({}));
  return defaults;
}
