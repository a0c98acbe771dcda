-- Retention of the access log (issue #21, docs/decisions/0015 "Retention"). The log stays append-only for
-- everyone but the retention purge (server/domains/journal/retention.ts): inside its own transaction, the
-- purge sets access_log_purge.cutoff, deletes the rows older than it, writes its summary row and clears the
-- cutoff before it commits. The DELETE trigger lets through only rows older than that cutoff, and the
-- control row refuses a cutoff younger than 30 days, so no statement can empty the recent log.
CREATE TABLE `access_log_purge` (
	`id` integer PRIMARY KEY DEFAULT 1 NOT NULL,
	`cutoff` integer
);
--> statement-breakpoint
INSERT INTO `access_log_purge` (`id`, `cutoff`) VALUES (1, NULL);
--> statement-breakpoint
CREATE TRIGGER `access_log_purge_one_row` BEFORE INSERT ON `access_log_purge`
BEGIN
  SELECT RAISE(ABORT, 'access_log_purge holds one row');
END;
--> statement-breakpoint
CREATE TRIGGER `access_log_purge_no_delete` BEFORE DELETE ON `access_log_purge`
BEGIN
  SELECT RAISE(ABORT, 'access_log_purge holds one row');
END;
--> statement-breakpoint
CREATE TRIGGER `access_log_purge_cutoff` BEFORE UPDATE ON `access_log_purge`
WHEN new.id IS NOT old.id OR (new.cutoff IS NOT NULL AND new.cutoff > cast(unixepoch('subsecond') * 1000 as integer) - 2592000000)
BEGIN
  SELECT RAISE(ABORT, 'access_log_purge: a cutoff is at least 30 days old');
END;
--> statement-breakpoint
DROP TRIGGER `access_log_no_delete`;
--> statement-breakpoint
CREATE TRIGGER `access_log_no_delete` BEFORE DELETE ON `access_log`
WHEN NOT coalesce(old.at < (SELECT p.cutoff FROM `access_log_purge` AS p WHERE p.id = 1), 0)
BEGIN
  SELECT RAISE(ABORT, 'access_log is append-only');
END;
--> statement-breakpoint
-- No name in the log (issue #21): the search texts of earlier exports become their length, and the e-mail
-- typed at a failed log-in on an unknown account is dropped (it may be anything a person typed). The
-- append-only trigger is lifted for these two statements only.
DROP TRIGGER `access_log_no_update`;
--> statement-breakpoint
UPDATE `access_log`
SET details = json_set(
  json_remove(details, '$.filtres.search'),
  '$.filtres.recherche',
  json_object('type', 'texte', 'longueur', length(json_extract(details, '$.filtres.search')))
)
WHERE kind = 'export' AND json_extract(details, '$.filtres.search') IS NOT NULL;
--> statement-breakpoint
UPDATE `access_log` SET user_email = NULL WHERE kind = 'echec_connexion' AND user_id IS NULL;
--> statement-breakpoint
CREATE TRIGGER `access_log_no_update` BEFORE UPDATE ON `access_log`
BEGIN
  SELECT RAISE(ABORT, 'access_log is append-only');
END;
