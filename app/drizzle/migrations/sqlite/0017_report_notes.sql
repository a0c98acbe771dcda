CREATE TABLE `report_notes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`signalement_id` integer NOT NULL,
	`author_id` integer NOT NULL,
	`texte` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`signalement_id`) REFERENCES `signalements`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `utilisateurs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `report_notes_code_unique` ON `report_notes` (`code`);--> statement-breakpoint
CREATE INDEX `report_notes_signalement_idx` ON `report_notes` (`signalement_id`,`created_at`);