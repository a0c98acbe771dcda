CREATE TABLE `business_days` (
	`day` integer PRIMARY KEY NOT NULL,
	`ordinal` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `business_days_ordinal_idx` ON `business_days` (`ordinal`,`day`);--> statement-breakpoint
CREATE TABLE `delais_traitement` (
	`niveau_id` integer PRIMARY KEY NOT NULL,
	`jours` integer,
	`updated_at` integer,
	`updated_by_id` integer,
	FOREIGN KEY (`niveau_id`) REFERENCES `niveaux`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`updated_by_id`) REFERENCES `utilisateurs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `signalements` ADD `due_day` integer DEFAULT 2147483647 NOT NULL;--> statement-breakpoint
CREATE INDEX `signalements_due_day_idx` ON `signalements` (`due_day`,`id`);