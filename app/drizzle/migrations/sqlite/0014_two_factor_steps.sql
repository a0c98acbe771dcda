-- Second factor, issue #21 (docs/decisions/0016-two-factor.md): wrong codes counted per session, the key
-- proposed at enrolment kept by the server, and the last accepted TOTP step (a code works once).
ALTER TABLE `sessions` ADD `two_factor_failures` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `two_factor_pending_key` text;--> statement-breakpoint
ALTER TABLE `two_factor_keys` ADD `last_used_step` integer;
