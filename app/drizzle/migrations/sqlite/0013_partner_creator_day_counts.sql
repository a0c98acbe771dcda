-- Two more dimensions in signalement_day_counts (docs/decisions/0022-list-totals.md): the partner and the
-- creator of each report, so the list's total for a partner or creator filter (alone or with whole days) is an
-- exact sum of counters instead of a count over the reports. The triggers of 0009 are replaced by the same
-- triggers with the two dimensions, and the two are filled from the reports.
DROP TRIGGER `signalements_day_counts_ai`;
--> statement-breakpoint
DROP TRIGGER `signalements_day_counts_au`;
--> statement-breakpoint
DROP TRIGGER `signalements_day_counts_bd`;
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
    UNION ALL SELECT 'partenaire', new.partenaire_id
    UNION ALL SELECT 'createur', new.created_by_id
  ) AS v WHERE v.ref_id IS NOT NULL
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER `signalements_day_counts_au` AFTER UPDATE ON `signalements`
WHEN old.signalement_at IS NOT new.signalement_at OR old.statut_id IS NOT new.statut_id OR old.region_id IS NOT new.region_id OR old.district_id IS NOT new.district_id OR old.commune_id IS NOT new.commune_id OR old.canal_principal_id IS NOT new.canal_principal_id OR old.niveau_id IS NOT new.niveau_id OR old.resultat_id IS NOT new.resultat_id OR old.partenaire_id IS NOT new.partenaire_id OR old.created_by_id IS NOT new.created_by_id
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
    UNION ALL SELECT 'partenaire', old.partenaire_id
    UNION ALL SELECT 'createur', old.created_by_id
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
    UNION ALL SELECT 'partenaire', new.partenaire_id
    UNION ALL SELECT 'createur', new.created_by_id
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
    UNION ALL SELECT 'partenaire', old.partenaire_id
    UNION ALL SELECT 'createur', old.created_by_id
  ) AS v WHERE v.ref_id IS NOT NULL
  ON CONFLICT (dimension, ref_id, day) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
SELECT 'partenaire', partenaire_id, ((signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= signalement_at ORDER BY o.starts_at DESC LIMIT 1)) - ((((signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= signalement_at ORDER BY o.starts_at DESC LIMIT 1)) % 86400000) + 86400000) % 86400000)) / 86400000, count(*) FROM `signalements` WHERE partenaire_id IS NOT NULL GROUP BY 2, 3;
--> statement-breakpoint
INSERT INTO `signalement_day_counts` (dimension, ref_id, day, n)
SELECT 'createur', created_by_id, ((signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= signalement_at ORDER BY o.starts_at DESC LIMIT 1)) - ((((signalement_at + (SELECT o.offset_ms FROM `business_calendar_offsets` AS o WHERE o.starts_at <= signalement_at ORDER BY o.starts_at DESC LIMIT 1)) % 86400000) + 86400000) % 86400000)) / 86400000, count(*) FROM `signalements` WHERE created_by_id IS NOT NULL GROUP BY 2, 3;
