-- Two more dimensions in signalement_day_counts (docs/decisions/0022-list-totals.md): the partner and the
-- creator of each report, so the list's total for a partner or creator filter (alone or with whole days) is an
-- exact sum of counters instead of a count over the reports. The function of 0007 adds the two dimensions, the
-- update trigger also fires when either changes, and the two are filled from the reports. Writes of reports
-- wait until this commits (another server still running the old function would write reports the backfill
-- does not see and the old function does not count).
LOCK TABLE "signalements" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "signalement_day_counts_add"(r "signalements", delta integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
  SELECT v.dimension, v.ref_id, "business_day"(r.signalement_at), delta
  FROM (VALUES ('total', 0), ('statut', r.statut_id), ('region', r.region_id), ('district', r.district_id), ('commune', r.commune_id), ('canal', r.canal_principal_id), ('niveau', r.niveau_id), ('resultat', r.resultat_id), ('partenaire', r.partenaire_id), ('createur', r.created_by_id)) AS v(dimension, ref_id)
  WHERE v.ref_id IS NOT NULL
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = "signalement_day_counts".n + excluded.n;
$$;
--> statement-breakpoint
DROP TRIGGER "signalements_day_counts_au" ON "signalements";
--> statement-breakpoint
CREATE TRIGGER "signalements_day_counts_au" AFTER UPDATE ON "signalements" FOR EACH ROW
WHEN (OLD.signalement_at IS DISTINCT FROM NEW.signalement_at OR OLD.statut_id IS DISTINCT FROM NEW.statut_id OR OLD.region_id IS DISTINCT FROM NEW.region_id OR OLD.district_id IS DISTINCT FROM NEW.district_id OR OLD.commune_id IS DISTINCT FROM NEW.commune_id OR OLD.canal_principal_id IS DISTINCT FROM NEW.canal_principal_id OR OLD.niveau_id IS DISTINCT FROM NEW.niveau_id OR OLD.resultat_id IS DISTINCT FROM NEW.resultat_id OR OLD.partenaire_id IS DISTINCT FROM NEW.partenaire_id OR OLD.created_by_id IS DISTINCT FROM NEW.created_by_id)
EXECUTE FUNCTION "signalements_day_counts_trigger"();
--> statement-breakpoint
INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
SELECT 'partenaire', partenaire_id, "business_day"(signalement_at), count(*) FROM "signalements" WHERE partenaire_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
SELECT 'createur', created_by_id, "business_day"(signalement_at), count(*) FROM "signalements" WHERE created_by_id IS NOT NULL GROUP BY 2, 3;
