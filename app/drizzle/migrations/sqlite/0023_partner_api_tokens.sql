CREATE TABLE `jetons_api` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`secret_hash` text NOT NULL,
	`nom` text NOT NULL,
	`partenaire_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`scopes` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_by_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`revoked_at` integer,
	`last_used_at` integer,
	FOREIGN KEY (`partenaire_id`) REFERENCES `partenaires`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `utilisateurs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by_id`) REFERENCES `utilisateurs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `jetons_api_public_id_unique` ON `jetons_api` (`public_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `jetons_api_user_id_unique` ON `jetons_api` (`user_id`);--> statement-breakpoint
CREATE INDEX `jetons_api_partenaire_idx` ON `jetons_api` (`partenaire_id`,`created_at`);