-- The day counts of an UPDATE of reports, once per statement instead of once per row (docs/decisions/0035-bulk-actions.md).
-- Row by row, a bulk change of 10,000 reports upserted the same few counter rows 20 times each per report in one
-- transaction, and every upsert walked the versions the earlier ones left: 20 to 50 s. Per statement, the
-- changes of every report are summed first (transition tables), and each counter row is written once. The
-- same counts as the row trigger of 0004/0011 (signalement_day_counts_add and _add_subjects): the reports
-- whose counted columns changed are taken out with their old values and put back with their new ones.
CREATE FUNCTION "signalements_day_counts_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH changed AS (
    SELECT o.id FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE o.signalement_at IS DISTINCT FROM n.signalement_at OR o.statut_id IS DISTINCT FROM n.statut_id
      OR o.region_id IS DISTINCT FROM n.region_id OR o.district_id IS DISTINCT FROM n.district_id
      OR o.commune_id IS DISTINCT FROM n.commune_id OR o.canal_principal_id IS DISTINCT FROM n.canal_principal_id
      OR o.niveau_id IS DISTINCT FROM n.niveau_id OR o.resultat_id IS DISTINCT FROM n.resultat_id
      OR o.partenaire_id IS DISTINCT FROM n.partenaire_id OR o.created_by_id IS DISTINCT FROM n.created_by_id
  ), moved AS (
    SELECT o.*, -1 AS delta FROM old_rows o WHERE o.id IN (SELECT id FROM changed)
    UNION ALL
    SELECT n.*, 1 AS delta FROM new_rows n WHERE n.id IN (SELECT id FROM changed)
  ), deltas AS (
    SELECT v.dimension, v.ref_id, "business_day"(m.signalement_at) AS day, m.delta
    FROM moved m
    CROSS JOIN LATERAL (VALUES ('total', 0), ('statut', m.statut_id), ('region', m.region_id), ('district', m.district_id), ('commune', m.commune_id), ('canal', m.canal_principal_id), ('niveau', m.niveau_id), ('resultat', m.resultat_id), ('partenaire', m.partenaire_id), ('createur', m.created_by_id)) AS v(dimension, ref_id)
    WHERE v.ref_id IS NOT NULL
    UNION ALL
    SELECT 'subject', ss.subject_id, "business_day"(m.signalement_at), m.delta
    FROM moved m JOIN "signalement_subjects" ss ON ss.signalement_id = m.id
  )
  INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
  SELECT dimension, ref_id, day, sum(delta)::integer FROM deltas GROUP BY 1, 2, 3 HAVING sum(delta) <> 0
  ORDER BY 1, 2, 3 -- counter rows locked in one order by every statement: two concurrent changes cannot deadlock here
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = "signalement_day_counts".n + excluded.n;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP TRIGGER "signalements_day_counts_au" ON "signalements";
--> statement-breakpoint
CREATE TRIGGER "signalements_day_counts_au" AFTER UPDATE ON "signalements"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION "signalements_day_counts_update"();
