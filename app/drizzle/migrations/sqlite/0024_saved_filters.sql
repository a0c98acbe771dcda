CREATE TABLE `filtres_enregistres` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`nom` text NOT NULL,
	`requete` text NOT NULL,
	`owner_id` integer NOT NULL,
	`partage` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `utilisateurs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `filtres_enregistres_owner_nom_idx` ON `filtres_enregistres` (`owner_id`,`nom`);--> statement-breakpoint
CREATE INDEX `filtres_enregistres_partage_idx` ON `filtres_enregistres` (`partage`);