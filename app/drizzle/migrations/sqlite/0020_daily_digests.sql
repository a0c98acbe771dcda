CREATE TABLE `daily_digests` (
	`day` integer PRIMARY KEY NOT NULL,
	`sent_at` integer NOT NULL,
	`mails` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `utilisateurs` ADD `digest_enabled` integer DEFAULT true NOT NULL;