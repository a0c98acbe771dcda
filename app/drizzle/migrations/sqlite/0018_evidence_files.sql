CREATE TABLE `evidence_chunks` (
	`evidence_id` integer NOT NULL,
	`idx` integer NOT NULL,
	`data` blob NOT NULL,
	PRIMARY KEY(`evidence_id`, `idx`),
	FOREIGN KEY (`evidence_id`) REFERENCES `evidence_files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `evidence_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`signalement_id` integer NOT NULL,
	`uploaded_by_id` integer NOT NULL,
	`nom` text NOT NULL,
	`type` text NOT NULL,
	`taille` integer DEFAULT 0 NOT NULL,
	`blocs` integer DEFAULT 0 NOT NULL,
	`sha256` text,
	`cle` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`signalement_id`) REFERENCES `signalements`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`uploaded_by_id`) REFERENCES `utilisateurs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `evidence_files_code_unique` ON `evidence_files` (`code`);--> statement-breakpoint
CREATE INDEX `evidence_files_signalement_idx` ON `evidence_files` (`signalement_id`,`created_at`);