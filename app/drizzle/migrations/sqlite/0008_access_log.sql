CREATE TABLE `access_alerts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`user_id` integer NOT NULL,
	`details` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`seen_at` integer,
	`seen_by` integer,
	FOREIGN KEY (`user_id`) REFERENCES `utilisateurs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`seen_by`) REFERENCES `utilisateurs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `access_alerts_user_idx` ON `access_alerts` (`user_id`,`kind`,`created_at`);--> statement-breakpoint
CREATE INDEX `access_alerts_seen_idx` ON `access_alerts` (`seen_at`,`created_at`);--> statement-breakpoint
CREATE TABLE `access_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`kind` text NOT NULL,
	`user_id` integer,
	`user_email` text,
	`address` text,
	`signalement_code` text,
	`details` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `utilisateurs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `access_log_at_idx` ON `access_log` (`at`);--> statement-breakpoint
CREATE INDEX `access_log_user_idx` ON `access_log` (`user_id`,`at`);--> statement-breakpoint
CREATE INDEX `access_log_signalement_idx` ON `access_log` (`signalement_code`,`at`);--> statement-breakpoint
CREATE INDEX `access_log_kind_idx` ON `access_log` (`kind`,`at`);--> statement-breakpoint
CREATE TABLE `data_key_check` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`verifier` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
ALTER TABLE `sources` ADD `nom_index` text;--> statement-breakpoint
CREATE INDEX `sources_nom_index_idx` ON `sources` (`nom_index`);
--> statement-breakpoint
-- The access log is append-only: no statement may change or remove an entry (issue #11).
CREATE TRIGGER `access_log_no_update` BEFORE UPDATE ON `access_log`
BEGIN
  SELECT RAISE(ABORT, 'access_log is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER `access_log_no_delete` BEFORE DELETE ON `access_log`
BEGIN
  SELECT RAISE(ABORT, 'access_log is append-only');
END;
