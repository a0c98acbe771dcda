DROP INDEX `signalements_signalement_at_idx`;--> statement-breakpoint
CREATE INDEX `signalements_signalement_at_idx` ON `signalements` (`signalement_at`,`id`,`due_day`);