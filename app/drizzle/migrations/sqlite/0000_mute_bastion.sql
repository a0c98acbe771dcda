CREATE TABLE `canals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`designation` text NOT NULL,
	`icon` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `canals_code_unique` ON `canals` (`code`);--> statement-breakpoint
CREATE TABLE `communes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`designation` text NOT NULL,
	`district_id` integer NOT NULL,
	`latitude` real,
	`longitude` real,
	FOREIGN KEY (`district_id`) REFERENCES `districts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `communes_code_unique` ON `communes` (`code`);--> statement-breakpoint
CREATE INDEX `communes_district_idx` ON `communes` (`district_id`);--> statement-breakpoint
CREATE TABLE `districts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`designation` text NOT NULL,
	`region_id` integer NOT NULL,
	`latitude` real,
	`longitude` real,
	FOREIGN KEY (`region_id`) REFERENCES `regions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `districts_code_unique` ON `districts` (`code`);--> statement-breakpoint
CREATE INDEX `districts_region_idx` ON `districts` (`region_id`);--> statement-breakpoint
CREATE TABLE `login_throttle` (
	`key` text PRIMARY KEY NOT NULL,
	`failures` integer NOT NULL,
	`window_started_at` integer NOT NULL,
	`blocked_until` integer
);
--> statement-breakpoint
CREATE TABLE `niveaux` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`designation` text NOT NULL,
	`color` text NOT NULL,
	`rank` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `niveaux_code_unique` ON `niveaux` (`code`);--> statement-breakpoint
CREATE TABLE `partenaires` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`designation` text NOT NULL,
	`email` text,
	`phone_number` text,
	`initial` text NOT NULL,
	`color` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `partenaires_code_unique` ON `partenaires` (`code`);--> statement-breakpoint
CREATE INDEX `partenaires_designation_idx` ON `partenaires` (`designation`);--> statement-breakpoint
CREATE TABLE `presume_auteurs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`signalement_id` integer NOT NULL,
	`nom_prenom` text NOT NULL,
	`fonction` text,
	`description` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`signalement_id`) REFERENCES `signalements`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `presume_auteurs_code_unique` ON `presume_auteurs` (`code`);--> statement-breakpoint
CREATE INDEX `presume_auteurs_signalement_idx` ON `presume_auteurs` (`signalement_id`);--> statement-breakpoint
CREATE TABLE `projects` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`sigle` text NOT NULL,
	`designation` text NOT NULL,
	`description` text,
	`owner_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `partenaires`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `projects_code_unique` ON `projects` (`code`);--> statement-breakpoint
CREATE INDEX `projects_owner_idx` ON `projects` (`owner_id`);--> statement-breakpoint
CREATE TABLE `regions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`designation` text NOT NULL,
	`latitude` real,
	`longitude` real
);
--> statement-breakpoint
CREATE UNIQUE INDEX `regions_code_unique` ON `regions` (`code`);--> statement-breakpoint
CREATE TABLE `resultats` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`designation` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `resultats_code_unique` ON `resultats` (`code`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `utilisateurs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `signalement_historique` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`signalement_id` integer NOT NULL,
	`user_id` integer,
	`at` integer NOT NULL,
	`action` text NOT NULL,
	`changes` text NOT NULL,
	FOREIGN KEY (`signalement_id`) REFERENCES `signalements`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `utilisateurs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `signalement_historique_signalement_idx` ON `signalement_historique` (`signalement_id`,`at`);--> statement-breakpoint
CREATE TABLE `signalement_projects` (
	`signalement_id` integer NOT NULL,
	`project_id` integer NOT NULL,
	PRIMARY KEY(`signalement_id`, `project_id`),
	FOREIGN KEY (`signalement_id`) REFERENCES `signalements`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `signalement_projects_project_idx` ON `signalement_projects` (`project_id`,`signalement_id`);--> statement-breakpoint
CREATE TABLE `signalement_subjects` (
	`signalement_id` integer NOT NULL,
	`subject_id` integer NOT NULL,
	PRIMARY KEY(`signalement_id`, `subject_id`),
	FOREIGN KEY (`signalement_id`) REFERENCES `signalements`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`subject_id`) REFERENCES `subjects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `signalement_subjects_subject_idx` ON `signalement_subjects` (`subject_id`,`signalement_id`);--> statement-breakpoint
CREATE TABLE `signalements` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`signalement_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`close_at` integer,
	`last_action_at` integer,
	`created_by_id` integer NOT NULL,
	`partenaire_id` integer NOT NULL,
	`canal_principal_id` integer,
	`autre_canal_principal` text,
	`autre_object` text,
	`region_id` integer,
	`district_id` integer,
	`commune_id` integer,
	`fokontany` text,
	`is_treated` integer DEFAULT false NOT NULL,
	`is_internal_responsability` integer DEFAULT false NOT NULL,
	`is_confict` integer DEFAULT false NOT NULL,
	`is_recurrent` integer DEFAULT false NOT NULL,
	`is_anonyme` integer DEFAULT false NOT NULL,
	`niveau_id` integer,
	`statut_id` integer,
	`resultat_id` integer,
	`description` text,
	`action_provisoires` text DEFAULT '[]' NOT NULL,
	`preuves` text DEFAULT '[]' NOT NULL,
	`search_text` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`created_by_id`) REFERENCES `utilisateurs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`partenaire_id`) REFERENCES `partenaires`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`canal_principal_id`) REFERENCES `canals`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`region_id`) REFERENCES `regions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`district_id`) REFERENCES `districts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`commune_id`) REFERENCES `communes`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`niveau_id`) REFERENCES `niveaux`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`statut_id`) REFERENCES `statuts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`resultat_id`) REFERENCES `resultats`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `signalements_code_unique` ON `signalements` (`code`);--> statement-breakpoint
CREATE INDEX `signalements_signalement_at_idx` ON `signalements` (`signalement_at`,`id`);--> statement-breakpoint
CREATE INDEX `signalements_partenaire_idx` ON `signalements` (`partenaire_id`,`signalement_at`);--> statement-breakpoint
CREATE INDEX `signalements_created_by_idx` ON `signalements` (`created_by_id`,`signalement_at`);--> statement-breakpoint
CREATE INDEX `signalements_region_idx` ON `signalements` (`region_id`,`signalement_at`);--> statement-breakpoint
CREATE INDEX `signalements_district_idx` ON `signalements` (`district_id`,`signalement_at`);--> statement-breakpoint
CREATE INDEX `signalements_commune_idx` ON `signalements` (`commune_id`,`signalement_at`);--> statement-breakpoint
CREATE INDEX `signalements_canal_idx` ON `signalements` (`canal_principal_id`,`signalement_at`);--> statement-breakpoint
CREATE INDEX `signalements_statut_idx` ON `signalements` (`statut_id`,`signalement_at`);--> statement-breakpoint
CREATE INDEX `signalements_niveau_idx` ON `signalements` (`niveau_id`,`signalement_at`);--> statement-breakpoint
CREATE INDEX `signalements_resultat_idx` ON `signalements` (`resultat_id`,`signalement_at`);--> statement-breakpoint
CREATE TABLE `source_canaux` (
	`source_id` integer NOT NULL,
	`canal_id` integer NOT NULL,
	PRIMARY KEY(`source_id`, `canal_id`),
	FOREIGN KEY (`source_id`) REFERENCES `sources`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`canal_id`) REFERENCES `canals`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `source_canaux_canal_idx` ON `source_canaux` (`canal_id`);--> statement-breakpoint
CREATE TABLE `sources` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`signalement_id` integer NOT NULL,
	`nom_prenom` text,
	`contact` text,
	`description` text,
	`autre_canal` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`signalement_id`) REFERENCES `signalements`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sources_code_unique` ON `sources` (`code`);--> statement-breakpoint
CREATE INDEX `sources_signalement_idx` ON `sources` (`signalement_id`);--> statement-breakpoint
CREATE TABLE `statuts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`designation` text NOT NULL,
	`kind` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `statuts_code_unique` ON `statuts` (`code`);--> statement-breakpoint
CREATE TABLE `subjects` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`designation` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subjects_code_unique` ON `subjects` (`code`);--> statement-breakpoint
CREATE TABLE `utilisateur_roles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`designation` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `utilisateur_roles_code_unique` ON `utilisateur_roles` (`code`);--> statement-breakpoint
CREATE TABLE `utilisateurs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`email` text NOT NULL,
	`nom_prenom` text NOT NULL,
	`password_hash` text,
	`is_enabled` integer DEFAULT true NOT NULL,
	`role_id` integer NOT NULL,
	`last_connection_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`role_id`) REFERENCES `utilisateur_roles`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `utilisateurs_code_unique` ON `utilisateurs` (`code`);--> statement-breakpoint
CREATE UNIQUE INDEX `utilisateurs_email_unique` ON `utilisateurs` (`email`);--> statement-breakpoint
CREATE INDEX `utilisateurs_nom_prenom_idx` ON `utilisateurs` (`nom_prenom`);--> statement-breakpoint
CREATE INDEX `utilisateurs_role_idx` ON `utilisateurs` (`role_id`);--> statement-breakpoint
CREATE TABLE `victimes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`signalement_id` integer NOT NULL,
	`nom_prenom` text NOT NULL,
	`fonction` text,
	`contact` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`signalement_id`) REFERENCES `signalements`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `victimes_code_unique` ON `victimes` (`code`);--> statement-breakpoint
CREATE INDEX `victimes_signalement_idx` ON `victimes` (`signalement_id`);