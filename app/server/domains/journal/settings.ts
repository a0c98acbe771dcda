// Thresholds of the alerts on unusual reading, the log's retention, and the public address used in their
// e-mails: read from the configuration once, by createAppContext (server/context.ts), and handed to the
// services that use them. There is no default here: a caller without a context builds one from its
// configuration.
import type { Config } from '#server/config';

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

export function journalSettingsOf(config: Config): JournalSettings {
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
