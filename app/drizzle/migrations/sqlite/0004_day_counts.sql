-- The dashboard's per-day counts (docs/decisions/0014-dashboard-day-counts.md): signalement_day_counts
-- holds, per UTC day (days since 1970-01-01) and per value of each dimension the dashboard counts, the
-- number of reports; 'total' counts every report. Triggers on signalements and signalement_subjects keep
-- it exact in the transaction of every write, whatever writes (services, demo generator, SQL by hand).
-- A report deleted takes its subject links first, while its date can still be read.
INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
SELECT 'total', 0, ((signalement_at) - (((signalement_at) % 86400000) + 86400000) % 86400000) / 86400000, count(*) FROM `signalements` GROUP BY 3;
--> statement-breakpoint
INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
SELECT 'statut', statut_id, ((signalement_at) - (((signalement_at) % 86400000) + 86400000) % 86400000) / 86400000, count(*) FROM `signalements` WHERE statut_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
SELECT 'region', region_id, ((signalement_at) - (((signalement_at) % 86400000) + 86400000) % 86400000) / 86400000, count(*) FROM `signalements` WHERE region_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
SELECT 'district', district_id, ((signalement_at) - (((signalement_at) % 86400000) + 86400000) % 86400000) / 86400000, count(*) FROM `signalements` WHERE district_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
SELECT 'commune', commune_id, ((signalement_at) - (((signalement_at) % 86400000) + 86400000) % 86400000) / 86400000, count(*) FROM `signalements` WHERE commune_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
SELECT 'canal', canal_principal_id, ((signalement_at) - (((signalement_at) % 86400000) + 86400000) % 86400000) / 86400000, count(*) FROM `signalements` WHERE canal_principal_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
SELECT 'niveau', niveau_id, ((signalement_at) - (((signalement_at) % 86400000) + 86400000) % 86400000) / 86400000, count(*) FROM `signalements` WHERE niveau_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
SELECT 'resultat', resultat_id, ((signalement_at) - (((signalement_at) % 86400000) + 86400000) % 86400000) / 86400000, count(*) FROM `signalements` WHERE resultat_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
SELECT 'subject', ss.subject_id, ((s.signalement_at) - (((s.signalement_at) % 86400000) + 86400000) % 86400000) / 86400000, count(*) FROM `signalement_subjects` AS ss JOIN `signalements` AS s ON s.id = ss.signalement_id GROUP BY 2, 3;
--> statement-breakpoint
CREATE TRIGGER `signalements_day_counts_ai` AFTER INSERT ON `signalements` BEGIN
  INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
  SELECT v.dimension, v.ref_id, ((new.signalement_at) - (((new.signalement_at) % 86400000) + 86400000) % 86400000) / 86400000, 1 FROM (
    SELECT 'total' AS dimension, 0 AS ref_id
    UNION ALL SELECT 'statut', new.statut_id
    UNION ALL SELECT 'region', new.region_id
    UNION ALL SELECT 'district', new.district_id
    UNION ALL SELECT 'commune', new.commune_id
    UNION ALL SELECT 'canal', new.canal_principal_id
    UNION ALL SELECT 'niveau', new.niveau_id
    UNION ALL SELECT 'resultat', new.resultat_id
  ) AS v WHERE v.ref_id IS NOT NULL
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER `signalements_day_counts_au` AFTER UPDATE ON `signalements`
WHEN old.signalement_at IS NOT new.signalement_at OR old.statut_id IS NOT new.statut_id OR old.region_id IS NOT new.region_id OR old.district_id IS NOT new.district_id OR old.commune_id IS NOT new.commune_id OR old.canal_principal_id IS NOT new.canal_principal_id OR old.niveau_id IS NOT new.niveau_id OR old.resultat_id IS NOT new.resultat_id
BEGIN
  INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
  SELECT v.dimension, v.ref_id, ((old.signalement_at) - (((old.signalement_at) % 86400000) + 86400000) % 86400000) / 86400000, -1 FROM (
    SELECT 'total' AS dimension, 0 AS ref_id
    UNION ALL SELECT 'statut', old.statut_id
    UNION ALL SELECT 'region', old.region_id
    UNION ALL SELECT 'district', old.district_id
    UNION ALL SELECT 'commune', old.commune_id
    UNION ALL SELECT 'canal', old.canal_principal_id
    UNION ALL SELECT 'niveau', old.niveau_id
    UNION ALL SELECT 'resultat', old.resultat_id
  ) AS v WHERE v.ref_id IS NOT NULL
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = n + excluded.n;
  INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
  SELECT v.dimension, v.ref_id, ((new.signalement_at) - (((new.signalement_at) % 86400000) + 86400000) % 86400000) / 86400000, 1 FROM (
    SELECT 'total' AS dimension, 0 AS ref_id
    UNION ALL SELECT 'statut', new.statut_id
    UNION ALL SELECT 'region', new.region_id
    UNION ALL SELECT 'district', new.district_id
    UNION ALL SELECT 'commune', new.commune_id
    UNION ALL SELECT 'canal', new.canal_principal_id
    UNION ALL SELECT 'niveau', new.niveau_id
    UNION ALL SELECT 'resultat', new.resultat_id
  ) AS v WHERE v.ref_id IS NOT NULL
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = n + excluded.n;
  INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
  SELECT 'subject', ss.subject_id, ((old.signalement_at) - (((old.signalement_at) % 86400000) + 86400000) % 86400000) / 86400000, -1 FROM `signalement_subjects` AS ss
  WHERE ss.signalement_id = old.id
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = n + excluded.n;
  INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
  SELECT 'subject', ss.subject_id, ((new.signalement_at) - (((new.signalement_at) % 86400000) + 86400000) % 86400000) / 86400000, 1 FROM `signalement_subjects` AS ss
  WHERE ss.signalement_id = new.id
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER `signalements_day_counts_bd` BEFORE DELETE ON `signalements` BEGIN
  DELETE FROM `signalement_subjects` WHERE signalement_id = old.id;
  INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
  SELECT v.dimension, v.ref_id, ((old.signalement_at) - (((old.signalement_at) % 86400000) + 86400000) % 86400000) / 86400000, -1 FROM (
    SELECT 'total' AS dimension, 0 AS ref_id
    UNION ALL SELECT 'statut', old.statut_id
    UNION ALL SELECT 'region', old.region_id
    UNION ALL SELECT 'district', old.district_id
    UNION ALL SELECT 'commune', old.commune_id
    UNION ALL SELECT 'canal', old.canal_principal_id
    UNION ALL SELECT 'niveau', old.niveau_id
    UNION ALL SELECT 'resultat', old.resultat_id
  ) AS v WHERE v.ref_id IS NOT NULL
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER `signalement_subjects_day_counts_ai` AFTER INSERT ON `signalement_subjects` BEGIN
  INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
  SELECT 'subject', new.subject_id, ((s.signalement_at) - (((s.signalement_at) % 86400000) + 86400000) % 86400000) / 86400000, 1 FROM `signalements` AS s
  WHERE s.id = new.signalement_id
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER `signalement_subjects_day_counts_ad` AFTER DELETE ON `signalement_subjects` BEGIN
  INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
  SELECT 'subject', old.subject_id, ((s.signalement_at) - (((s.signalement_at) % 86400000) + 86400000) % 86400000) / 86400000, -1 FROM `signalements` AS s
  WHERE s.id = old.signalement_id
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER `signalement_subjects_day_counts_au` AFTER UPDATE ON `signalement_subjects` BEGIN
  INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
  SELECT 'subject', old.subject_id, ((s.signalement_at) - (((s.signalement_at) % 86400000) + 86400000) % 86400000) / 86400000, -1 FROM `signalements` AS s
  WHERE s.id = old.signalement_id
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = n + excluded.n;
  INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
  SELECT 'subject', new.subject_id, ((s.signalement_at) - (((s.signalement_at) % 86400000) + 86400000) % 86400000) / 86400000, 1 FROM `signalements` AS s
  WHERE s.id = new.signalement_id
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = n + excluded.n;
END;
