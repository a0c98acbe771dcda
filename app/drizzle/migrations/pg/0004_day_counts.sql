-- The dashboard's per-day counts (docs/decisions/0014-dashboard-day-counts.md): signalement_day_counts
-- holds, per UTC day (days since 1970-01-01) and per value of each dimension the dashboard counts, the
-- number of reports; 'total' counts every report. Triggers on signalements and signalement_subjects keep
-- it exact in the transaction of every write, whatever writes (services, demo generator, SQL by hand).
-- TRUNCATE empties the counts too. A report deleted takes its subject links first, while its date can still be read.
INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
SELECT 'total', 0, floor(extract(epoch from signalement_at) / 86400)::integer, count(*) FROM "signalements" GROUP BY 3;
--> statement-breakpoint
INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
SELECT 'statut', statut_id, floor(extract(epoch from signalement_at) / 86400)::integer, count(*) FROM "signalements" WHERE statut_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
SELECT 'region', region_id, floor(extract(epoch from signalement_at) / 86400)::integer, count(*) FROM "signalements" WHERE region_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
SELECT 'district', district_id, floor(extract(epoch from signalement_at) / 86400)::integer, count(*) FROM "signalements" WHERE district_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
SELECT 'commune', commune_id, floor(extract(epoch from signalement_at) / 86400)::integer, count(*) FROM "signalements" WHERE commune_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
SELECT 'canal', canal_principal_id, floor(extract(epoch from signalement_at) / 86400)::integer, count(*) FROM "signalements" WHERE canal_principal_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
SELECT 'niveau', niveau_id, floor(extract(epoch from signalement_at) / 86400)::integer, count(*) FROM "signalements" WHERE niveau_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
SELECT 'resultat', resultat_id, floor(extract(epoch from signalement_at) / 86400)::integer, count(*) FROM "signalements" WHERE resultat_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
SELECT 'subject', ss.subject_id, floor(extract(epoch from s.signalement_at) / 86400)::integer, count(*) FROM "signalement_subjects" AS ss JOIN "signalements" AS s ON s.id = ss.signalement_id GROUP BY 2, 3;
--> statement-breakpoint
CREATE FUNCTION "signalement_day_counts_add"(r "signalements", delta integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
  SELECT v.dimension, v.ref_id, floor(extract(epoch from r.signalement_at) / 86400)::integer, delta
  FROM (VALUES ('total', 0), ('statut', r.statut_id), ('region', r.region_id), ('district', r.district_id), ('commune', r.commune_id), ('canal', r.canal_principal_id), ('niveau', r.niveau_id), ('resultat', r.resultat_id)) AS v(dimension, ref_id)
  WHERE v.ref_id IS NOT NULL
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = "signalement_day_counts".n + excluded.n;
$$;
--> statement-breakpoint
CREATE FUNCTION "signalement_day_counts_add_subjects"(r "signalements", delta integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
  SELECT 'subject', ss.subject_id, floor(extract(epoch from r.signalement_at) / 86400)::integer, delta
  FROM "signalement_subjects" AS ss WHERE ss.signalement_id = r.id
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = "signalement_day_counts".n + excluded.n;
$$;
--> statement-breakpoint
CREATE FUNCTION "signalement_day_counts_add_link"(link "signalement_subjects", delta integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
  SELECT 'subject', link.subject_id, floor(extract(epoch from s.signalement_at) / 86400)::integer, delta
  FROM "signalements" AS s WHERE s.id = link.signalement_id
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = "signalement_day_counts".n + excluded.n;
$$;
--> statement-breakpoint
CREATE FUNCTION "signalements_day_counts_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "signalement_day_counts_add"(NEW, 1);
    RETURN NULL;
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "signalement_day_counts_add"(OLD, -1);
    PERFORM "signalement_day_counts_add"(NEW, 1);
    PERFORM "signalement_day_counts_add_subjects"(OLD, -1);
    PERFORM "signalement_day_counts_add_subjects"(NEW, 1);
    RETURN NULL;
  ELSE
    DELETE FROM "signalement_subjects" WHERE signalement_id = OLD.id;
    PERFORM "signalement_day_counts_add"(OLD, -1);
    RETURN OLD;
  END IF;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "signalement_subjects_day_counts_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM "signalement_day_counts_add_link"(OLD, -1); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM "signalement_day_counts_add_link"(NEW, 1); END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "signalements_day_counts_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'signalements' THEN
    DELETE FROM "signalement_day_counts";
  ELSE
    DELETE FROM "signalement_day_counts" WHERE dimension = 'subject';
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "signalements_day_counts_ai" AFTER INSERT ON "signalements" FOR EACH ROW EXECUTE FUNCTION "signalements_day_counts_trigger"();
--> statement-breakpoint
CREATE TRIGGER "signalements_day_counts_au" AFTER UPDATE ON "signalements" FOR EACH ROW
WHEN (OLD.signalement_at IS DISTINCT FROM NEW.signalement_at OR OLD.statut_id IS DISTINCT FROM NEW.statut_id OR OLD.region_id IS DISTINCT FROM NEW.region_id OR OLD.district_id IS DISTINCT FROM NEW.district_id OR OLD.commune_id IS DISTINCT FROM NEW.commune_id OR OLD.canal_principal_id IS DISTINCT FROM NEW.canal_principal_id OR OLD.niveau_id IS DISTINCT FROM NEW.niveau_id OR OLD.resultat_id IS DISTINCT FROM NEW.resultat_id)
EXECUTE FUNCTION "signalements_day_counts_trigger"();
--> statement-breakpoint
CREATE TRIGGER "signalements_day_counts_bd" BEFORE DELETE ON "signalements" FOR EACH ROW EXECUTE FUNCTION "signalements_day_counts_trigger"();
--> statement-breakpoint
CREATE TRIGGER "signalement_subjects_day_counts" AFTER INSERT OR UPDATE OR DELETE ON "signalement_subjects" FOR EACH ROW EXECUTE FUNCTION "signalement_subjects_day_counts_trigger"();
--> statement-breakpoint
CREATE TRIGGER "signalements_day_counts_truncate" AFTER TRUNCATE ON "signalements" FOR EACH STATEMENT EXECUTE FUNCTION "signalements_day_counts_truncate"();
--> statement-breakpoint
CREATE TRIGGER "signalement_subjects_day_counts_truncate" AFTER TRUNCATE ON "signalement_subjects" FOR EACH STATEMENT EXECUTE FUNCTION "signalements_day_counts_truncate"();
