CREATE TABLE `business_calendar_offsets` (
	`starts_at` integer PRIMARY KEY NOT NULL,
	`offset_ms` integer NOT NULL,
	`zone` text NOT NULL
);
--> statement-breakpoint
-- The business calendar (docs/decisions/0018-business-calendar.md): signalement_day_counts is keyed by the
-- business day (default Madagascar, APP_TIMEZONE) instead of the UTC day. The offsets of the default zone are
-- written here; a server started with another zone rewrites them and rebuilds the counts. The triggers of
-- 0004 are replaced by the same triggers reading the offset in force, and the counts are rebuilt.
INSERT INTO `business_calendar_offsets` (starts_at, offset_ms, zone) VALUES
  (-30610224000000, 8836000, 'Indian/Antananarivo'),
  (-1946168836000, 9000000, 'Indian/Antananarivo'),
  (-1309746600000, 10800000, 'Indian/Antananarivo'),
  (-1261969200000, 9000000, 'Indian/Antananarivo'),
  (-1041388200000, 9900000, 'Indian/Antananarivo'),
  (-865305900000, 10800000, 'Indian/Antananarivo');
--> statement-breakpoint
DROP TRIGGER `signalements_day_counts_ai`;
--> statement-breakpoint
DROP TRIGGER `signalements_day_counts_au`;
--> statement-breakpoint
DROP TRIGGER `signalements_day_counts_bd`;
--> statement-breakpoint
DROP TRIGGER `signalement_subjects_day_counts_ai`;
--> statement-breakpoint
DROP TRIGGER `signalement_subjects_day_counts_ad`;
--> statement-breakpoint
DROP TRIGGER `signalement_subjects_day_counts_au`;
--> statement-breakpoint
CREATE TRIGGER `signalements_day_counts_ai` AFTER INSERT ON `signalements` BEGIN
  INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
  SELECT v.dimension, v.ref_id, ((new.signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= new.signalement_at ORDER BY o.starts_at DESC LIMIT 1)) - ((((new.signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= new.signalement_at ORDER BY o.starts_at DESC LIMIT 1)) % 86400000) + 86400000) % 86400000)) / 86400000, 1 FROM (
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
  SELECT v.dimension, v.ref_id, ((old.signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= old.signalement_at ORDER BY o.starts_at DESC LIMIT 1)) - ((((old.signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= old.signalement_at ORDER BY o.starts_at DESC LIMIT 1)) % 86400000) + 86400000) % 86400000)) / 86400000, -1 FROM (
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
  SELECT v.dimension, v.ref_id, ((new.signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= new.signalement_at ORDER BY o.starts_at DESC LIMIT 1)) - ((((new.signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= new.signalement_at ORDER BY o.starts_at DESC LIMIT 1)) % 86400000) + 86400000) % 86400000)) / 86400000, 1 FROM (
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
  SELECT 'subject', ss.subject_id, ((old.signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= old.signalement_at ORDER BY o.starts_at DESC LIMIT 1)) - ((((old.signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= old.signalement_at ORDER BY o.starts_at DESC LIMIT 1)) % 86400000) + 86400000) % 86400000)) / 86400000, -1 FROM `signalement_subjects` AS ss
  WHERE ss.signalement_id = old.id
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = n + excluded.n;
  INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
  SELECT 'subject', ss.subject_id, ((new.signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= new.signalement_at ORDER BY o.starts_at DESC LIMIT 1)) - ((((new.signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= new.signalement_at ORDER BY o.starts_at DESC LIMIT 1)) % 86400000) + 86400000) % 86400000)) / 86400000, 1 FROM `signalement_subjects` AS ss
  WHERE ss.signalement_id = new.id
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER `signalements_day_counts_bd` BEFORE DELETE ON `signalements` BEGIN
  DELETE FROM `signalement_subjects` WHERE signalement_id = old.id;
  INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
  SELECT v.dimension, v.ref_id, ((old.signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= old.signalement_at ORDER BY o.starts_at DESC LIMIT 1)) - ((((old.signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= old.signalement_at ORDER BY o.starts_at DESC LIMIT 1)) % 86400000) + 86400000) % 86400000)) / 86400000, -1 FROM (
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
  SELECT 'subject', new.subject_id, ((s.signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= s.signalement_at ORDER BY o.starts_at DESC LIMIT 1)) - ((((s.signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= s.signalement_at ORDER BY o.starts_at DESC LIMIT 1)) % 86400000) + 86400000) % 86400000)) / 86400000, 1 FROM `signalements` AS s
  WHERE s.id = new.signalement_id
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER `signalement_subjects_day_counts_ad` AFTER DELETE ON `signalement_subjects` BEGIN
  INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
  SELECT 'subject', old.subject_id, ((s.signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= s.signalement_at ORDER BY o.starts_at DESC LIMIT 1)) - ((((s.signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= s.signalement_at ORDER BY o.starts_at DESC LIMIT 1)) % 86400000) + 86400000) % 86400000)) / 86400000, -1 FROM `signalements` AS s
  WHERE s.id = old.signalement_id
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER `signalement_subjects_day_counts_au` AFTER UPDATE ON `signalement_subjects` BEGIN
  INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
  SELECT 'subject', old.subject_id, ((s.signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= s.signalement_at ORDER BY o.starts_at DESC LIMIT 1)) - ((((s.signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= s.signalement_at ORDER BY o.starts_at DESC LIMIT 1)) % 86400000) + 86400000) % 86400000)) / 86400000, -1 FROM `signalements` AS s
  WHERE s.id = old.signalement_id
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = n + excluded.n;
  INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
  SELECT 'subject', new.subject_id, ((s.signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= s.signalement_at ORDER BY o.starts_at DESC LIMIT 1)) - ((((s.signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= s.signalement_at ORDER BY o.starts_at DESC LIMIT 1)) % 86400000) + 86400000) % 86400000)) / 86400000, 1 FROM `signalements` AS s
  WHERE s.id = new.signalement_id
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
DELETE FROM `signalement_day_counts`;
--> statement-breakpoint
INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
SELECT 'total', 0, ((signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= signalement_at ORDER BY o.starts_at DESC LIMIT 1)) - ((((signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= signalement_at ORDER BY o.starts_at DESC LIMIT 1)) % 86400000) + 86400000) % 86400000)) / 86400000, count(*) FROM `signalements` GROUP BY 3;
--> statement-breakpoint
INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
SELECT 'statut', statut_id, ((signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= signalement_at ORDER BY o.starts_at DESC LIMIT 1)) - ((((signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= signalement_at ORDER BY o.starts_at DESC LIMIT 1)) % 86400000) + 86400000) % 86400000)) / 86400000, count(*) FROM `signalements` WHERE statut_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
SELECT 'region', region_id, ((signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= signalement_at ORDER BY o.starts_at DESC LIMIT 1)) - ((((signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= signalement_at ORDER BY o.starts_at DESC LIMIT 1)) % 86400000) + 86400000) % 86400000)) / 86400000, count(*) FROM `signalements` WHERE region_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
SELECT 'district', district_id, ((signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= signalement_at ORDER BY o.starts_at DESC LIMIT 1)) - ((((signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= signalement_at ORDER BY o.starts_at DESC LIMIT 1)) % 86400000) + 86400000) % 86400000)) / 86400000, count(*) FROM `signalements` WHERE district_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
SELECT 'commune', commune_id, ((signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= signalement_at ORDER BY o.starts_at DESC LIMIT 1)) - ((((signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= signalement_at ORDER BY o.starts_at DESC LIMIT 1)) % 86400000) + 86400000) % 86400000)) / 86400000, count(*) FROM `signalements` WHERE commune_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
SELECT 'canal', canal_principal_id, ((signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= signalement_at ORDER BY o.starts_at DESC LIMIT 1)) - ((((signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= signalement_at ORDER BY o.starts_at DESC LIMIT 1)) % 86400000) + 86400000) % 86400000)) / 86400000, count(*) FROM `signalements` WHERE canal_principal_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
SELECT 'niveau', niveau_id, ((signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= signalement_at ORDER BY o.starts_at DESC LIMIT 1)) - ((((signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= signalement_at ORDER BY o.starts_at DESC LIMIT 1)) % 86400000) + 86400000) % 86400000)) / 86400000, count(*) FROM `signalements` WHERE niveau_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
SELECT 'resultat', resultat_id, ((signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= signalement_at ORDER BY o.starts_at DESC LIMIT 1)) - ((((signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= signalement_at ORDER BY o.starts_at DESC LIMIT 1)) % 86400000) + 86400000) % 86400000)) / 86400000, count(*) FROM `signalements` WHERE resultat_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
SELECT 'subject', ss.subject_id, ((s.signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= s.signalement_at ORDER BY o.starts_at DESC LIMIT 1)) - ((((s.signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= s.signalement_at ORDER BY o.starts_at DESC LIMIT 1)) % 86400000) + 86400000) % 86400000)) / 86400000, count(*) FROM `signalement_subjects` AS ss JOIN `signalements` AS s ON s.id = ss.signalement_id GROUP BY 2, 3;
