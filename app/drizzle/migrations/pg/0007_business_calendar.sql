CREATE TABLE "business_calendar_offsets" (
	"starts_at" timestamp (3) with time zone NOT NULL,
	"offset_ms" integer NOT NULL,
	"zone" text NOT NULL,
	CONSTRAINT "business_calendar_offsets_starts_at_pk" PRIMARY KEY("starts_at")
);
--> statement-breakpoint
-- The business calendar (docs/decisions/0018-business-calendar.md): signalement_day_counts is keyed by the
-- business day (default Madagascar, APP_TIMEZONE) instead of the UTC day. The offsets of the default zone are
-- written here; a server started with another zone rewrites them and rebuilds the counts. business_day()
-- reads the offset in force; the functions of 0004 are replaced to call it, and the counts are rebuilt.
INSERT INTO "business_calendar_offsets" (starts_at, offset_ms, zone) VALUES
  ('1000-01-01T00:00:00.000Z', 8836000, 'Indian/Antananarivo'),
  ('1908-04-30T21:32:44.000Z', 9000000, 'Indian/Antananarivo'),
  ('1928-06-30T21:30:00.000Z', 10800000, 'Indian/Antananarivo'),
  ('1930-01-04T21:00:00.000Z', 9000000, 'Indian/Antananarivo'),
  ('1936-12-31T21:30:00.000Z', 9900000, 'Indian/Antananarivo'),
  ('1942-07-31T21:15:00.000Z', 10800000, 'Indian/Antananarivo');
--> statement-breakpoint
CREATE FUNCTION "business_day"(at timestamptz) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT floor((extract(epoch from at) * 1000 + o.offset_ms) / 86400000)::integer
  FROM "business_calendar_offsets" AS o WHERE o.starts_at <= at ORDER BY o.starts_at DESC LIMIT 1;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "signalement_day_counts_add"(r "signalements", delta integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
  SELECT v.dimension, v.ref_id, "business_day"(r.signalement_at), delta
  FROM (VALUES ('total', 0), ('statut', r.statut_id), ('region', r.region_id), ('district', r.district_id), ('commune', r.commune_id), ('canal', r.canal_principal_id), ('niveau', r.niveau_id), ('resultat', r.resultat_id)) AS v(dimension, ref_id)
  WHERE v.ref_id IS NOT NULL
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = "signalement_day_counts".n + excluded.n;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "signalement_day_counts_add_subjects"(r "signalements", delta integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
  SELECT 'subject', ss.subject_id, "business_day"(r.signalement_at), delta
  FROM "signalement_subjects" AS ss WHERE ss.signalement_id = r.id
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = "signalement_day_counts".n + excluded.n;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "signalement_day_counts_add_link"(link "signalement_subjects", delta integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
  SELECT 'subject', link.subject_id, "business_day"(s.signalement_at), delta
  FROM "signalements" AS s WHERE s.id = link.signalement_id
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = "signalement_day_counts".n + excluded.n;
$$;
--> statement-breakpoint
DELETE FROM "signalement_day_counts";
--> statement-breakpoint
INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
SELECT 'total', 0, "business_day"(signalement_at), count(*) FROM "signalements" GROUP BY 3;
--> statement-breakpoint
INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
SELECT 'statut', statut_id, "business_day"(signalement_at), count(*) FROM "signalements" WHERE statut_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
SELECT 'region', region_id, "business_day"(signalement_at), count(*) FROM "signalements" WHERE region_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
SELECT 'district', district_id, "business_day"(signalement_at), count(*) FROM "signalements" WHERE district_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
SELECT 'commune', commune_id, "business_day"(signalement_at), count(*) FROM "signalements" WHERE commune_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
SELECT 'canal', canal_principal_id, "business_day"(signalement_at), count(*) FROM "signalements" WHERE canal_principal_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
SELECT 'niveau', niveau_id, "business_day"(signalement_at), count(*) FROM "signalements" WHERE niveau_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
SELECT 'resultat', resultat_id, "business_day"(signalement_at), count(*) FROM "signalements" WHERE resultat_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO "signalement_day_counts" (dimension, ref_id, day, n)
SELECT 'subject', ss.subject_id, "business_day"(s.signalement_at), count(*) FROM "signalement_subjects" AS ss JOIN "signalements" AS s ON s.id = ss.signalement_id GROUP BY 2, 3;
