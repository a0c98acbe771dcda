-- A write's day counts are added at COMMIT (docs/decisions/0057-day-counts-at-commit.md). Until now every
-- trigger of 0004/0007/0011/0016 upserted signalement_day_counts at once, so a create held the counter rows
-- of its day ('total' first) from its INSERT to its COMMIT: every create of a day waited for the whole
-- transaction of the one before. The triggers now write their deltas, computed at the same moments and
-- from the same rows as before, into signalement_day_count_deltas (this transaction's own, deleted before
-- it ends), and one deferred trigger per transaction adds them to the counters just before COMMIT,
-- summed and in one order (dimension, ref_id, day): the rows are held for the commit only, and two
-- writers cannot deadlock on them.
CREATE UNLOGGED TABLE "signalement_day_count_deltas" (
  "xid" xid8 DEFAULT pg_current_xact_id() NOT NULL,
  "dimension" text NOT NULL,
  "ref_id" integer NOT NULL,
  "day" integer NOT NULL,
  "n" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "signalement_day_count_deltas_xid" ON "signalement_day_count_deltas" ("xid");
--> statement-breakpoint
CREATE UNLOGGED TABLE "signalement_day_count_flushes" (
  "xid" xid8 DEFAULT pg_current_xact_id() PRIMARY KEY
);
--> statement-breakpoint
CREATE FUNCTION "signalement_day_counts_pending"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('signalements.day_counts_pending', true), '') <> 'on' THEN
    PERFORM set_config('signalements.day_counts_pending', 'on', true);
    INSERT INTO "signalement_day_count_flushes" DEFAULT VALUES ON CONFLICT DO NOTHING;
  END IF;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "signalement_day_counts_flush"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('signalements.day_counts_pending', '', true);
  DELETE FROM "signalement_day_count_flushes" WHERE xid = pg_current_xact_id();
  WITH pending AS (
    DELETE FROM "signalement_day_count_deltas" WHERE xid = pg_current_xact_id() RETURNING dimension, ref_id, day, n
  )
  INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
  SELECT dimension, ref_id, day, sum(n)::integer FROM pending GROUP BY 1, 2, 3 HAVING sum(n) <> 0
  ORDER BY 1, 2, 3
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = "signalement_day_counts".n + excluded.n;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "signalement_day_count_flushes_flush" AFTER INSERT ON "signalement_day_count_flushes"
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "signalement_day_counts_flush"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "signalement_day_counts_add"(r "signalements", delta integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "signalement_day_count_deltas" (dimension, ref_id, day, n)
  SELECT v.dimension, v.ref_id, "business_day"(r.signalement_at), delta
  FROM (VALUES ('total', 0), ('statut', r.statut_id), ('region', r.region_id), ('district', r.district_id), ('commune', r.commune_id), ('canal', r.canal_principal_id), ('niveau', r.niveau_id), ('resultat', r.resultat_id), ('partenaire', r.partenaire_id), ('createur', r.created_by_id)) AS v(dimension, ref_id)
  WHERE v.ref_id IS NOT NULL;
  SELECT "signalement_day_counts_pending"();
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "signalement_day_counts_add_subjects"(r "signalements", delta integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "signalement_day_count_deltas" (dimension, ref_id, day, n)
  SELECT 'subject', ss.subject_id, "business_day"(r.signalement_at), delta
  FROM "signalement_subjects" AS ss WHERE ss.signalement_id = r.id;
  SELECT "signalement_day_counts_pending"();
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "signalement_day_counts_add_link"(link "signalement_subjects", delta integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "signalement_day_count_deltas" (dimension, ref_id, day, n)
  SELECT 'subject', link.subject_id, "business_day"(s.signalement_at), delta
  FROM "signalements" AS s WHERE s.id = link.signalement_id;
  SELECT "signalement_day_counts_pending"();
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "signalements_day_counts_update"() RETURNS trigger LANGUAGE plpgsql AS $$
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
  INSERT INTO "signalement_day_count_deltas" (dimension, ref_id, day, n)
  SELECT dimension, ref_id, day, sum(delta)::integer FROM deltas GROUP BY 1, 2, 3 HAVING sum(delta) <> 0;
  IF FOUND THEN PERFORM "signalement_day_counts_pending"(); END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "signalements_day_counts_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'signalements' THEN
    DELETE FROM "signalement_day_count_deltas" WHERE xid = pg_current_xact_id();
    DELETE FROM "signalement_day_counts";
  ELSE
    DELETE FROM "signalement_day_count_deltas" WHERE xid = pg_current_xact_id() AND dimension = 'subject';
    DELETE FROM "signalement_day_counts" WHERE dimension = 'subject';
  END IF;
  RETURN NULL;
END;
$$;
