CREATE TABLE `mail_workers` (
	`id` text PRIMARY KEY NOT NULL,
	`beat_at` integer NOT NULL,
	`started_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `claimed_by` text;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `claimed_at` integer;--> statement-breakpoint
CREATE INDEX `mail_outbox_sent_idx` ON `mail_outbox` (`status`,`sent_at`);