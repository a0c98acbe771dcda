DROP INDEX `signalements_partenaire_idx`;--> statement-breakpoint
DROP INDEX `signalements_created_by_idx`;--> statement-breakpoint
DROP INDEX `signalements_region_idx`;--> statement-breakpoint
DROP INDEX `signalements_district_idx`;--> statement-breakpoint
DROP INDEX `signalements_commune_idx`;--> statement-breakpoint
DROP INDEX `signalements_canal_idx`;--> statement-breakpoint
DROP INDEX `signalements_statut_idx`;--> statement-breakpoint
DROP INDEX `signalements_niveau_idx`;--> statement-breakpoint
DROP INDEX `signalements_resultat_idx`;--> statement-breakpoint
CREATE INDEX `signalements_partenaire_idx` ON `signalements` (`partenaire_id`,`signalement_at`,`id`);--> statement-breakpoint
CREATE INDEX `signalements_created_by_idx` ON `signalements` (`created_by_id`,`signalement_at`,`id`);--> statement-breakpoint
CREATE INDEX `signalements_region_idx` ON `signalements` (`region_id`,`signalement_at`,`id`);--> statement-breakpoint
CREATE INDEX `signalements_district_idx` ON `signalements` (`district_id`,`signalement_at`,`id`);--> statement-breakpoint
CREATE INDEX `signalements_commune_idx` ON `signalements` (`commune_id`,`signalement_at`,`id`);--> statement-breakpoint
CREATE INDEX `signalements_canal_idx` ON `signalements` (`canal_principal_id`,`signalement_at`,`id`);--> statement-breakpoint
CREATE INDEX `signalements_statut_idx` ON `signalements` (`statut_id`,`signalement_at`,`id`);--> statement-breakpoint
CREATE INDEX `signalements_niveau_idx` ON `signalements` (`niveau_id`,`signalement_at`,`id`);--> statement-breakpoint
CREATE INDEX `signalements_resultat_idx` ON `signalements` (`resultat_id`,`signalement_at`,`id`);