-- Retention of the access log (issue #21, docs/decisions/0015 "Retention"). The log stays append-only for
-- everyone but the retention purge (server/domains/journal/retention.ts): inside its own transaction, the
-- purge sets access_log_purge.cutoff, deletes the rows older than it, writes its summary row and clears the
-- cutoff before it commits. The DELETE trigger lets through only rows older than that cutoff, and the
-- control row refuses a cutoff younger than 30 days, so no statement can empty the recent log.
CREATE TABLE "access_log_purge" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"cutoff" timestamp (3) with time zone
);
--> statement-breakpoint
INSERT INTO "access_log_purge" ("id", "cutoff") VALUES (1, NULL);
--> statement-breakpoint
CREATE FUNCTION access_log_purge_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.id = OLD.id AND (NEW.cutoff IS NULL OR NEW.cutoff <= now() - interval '30 days') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'access_log_purge: one row, whose cutoff is at least 30 days old';
END
$$;
--> statement-breakpoint
CREATE TRIGGER access_log_purge_guard BEFORE INSERT OR UPDATE OR DELETE ON "access_log_purge"
  FOR EACH ROW EXECUTE FUNCTION access_log_purge_guard();
--> statement-breakpoint
CREATE TRIGGER access_log_purge_no_truncate BEFORE TRUNCATE ON "access_log_purge"
  FOR EACH STATEMENT EXECUTE FUNCTION access_log_purge_guard();
--> statement-breakpoint
-- No name in the log (issue #21): the search texts of earlier exports become their length, and the e-mail
-- typed at a failed log-in on an unknown account is dropped (it may be anything a person typed). The
-- append-only trigger is lifted for these two statements only.
DROP TRIGGER access_log_no_change ON "access_log";
--> statement-breakpoint
UPDATE "access_log"
SET details = jsonb_set(
  details #- '{filtres,search}',
  '{filtres,recherche}',
  jsonb_build_object('type', 'texte', 'longueur', char_length(details #>> '{filtres,search}'))
)
WHERE kind = 'export' AND details #>> '{filtres,search}' IS NOT NULL;
--> statement-breakpoint
UPDATE "access_log" SET user_email = NULL WHERE kind = 'echec_connexion' AND user_id IS NULL;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION access_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND OLD.at < (SELECT p.cutoff FROM "access_log_purge" AS p WHERE p.id = 1) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'access_log is append-only';
END
$$;
--> statement-breakpoint
CREATE TRIGGER access_log_no_change BEFORE UPDATE OR DELETE ON "access_log"
  FOR EACH ROW EXECUTE FUNCTION access_log_append_only();
