CREATE TABLE `rate_windows` (
	`key` text PRIMARY KEY NOT NULL,
	`started_at` integer NOT NULL,
	`count` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `rate_windows_started_idx` ON `rate_windows` (`started_at`);