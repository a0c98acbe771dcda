ALTER TABLE `webhook_endpoints` ADD `previous_secret` text;--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `previous_secret_expires_at` integer;