CREATE TABLE `signalement_assignees` (
	`signalement_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`assigned_by_id` integer,
	`assigned_at` integer NOT NULL,
	PRIMARY KEY(`signalement_id`, `user_id`),
	FOREIGN KEY (`signalement_id`) REFERENCES `signalements`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `utilisateurs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`assigned_by_id`) REFERENCES `utilisateurs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `signalement_assignees_user_idx` ON `signalement_assignees` (`user_id`,`signalement_id`);