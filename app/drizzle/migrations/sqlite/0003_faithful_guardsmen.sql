CREATE TABLE `signalement_day_counts` (
	`dimension` text NOT NULL,
	`ref_id` integer NOT NULL,
	`day` integer NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`dimension`, `ref_id`, `day`)
) WITHOUT ROWID;
