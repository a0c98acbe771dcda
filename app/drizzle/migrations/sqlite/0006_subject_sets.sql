-- How many reports have each set of subjects (SQLite only; server/domains/signalements/queries.ts).
-- A list filtered by subjects alone is counted by adding the rows whose set holds one of the chosen
-- subjects: a handful of rows, where counting the links took a COUNT DISTINCT over every link of the
-- chosen subjects (200 ms for two common subjects among 1,000,000 reports). `subjects` lists the
-- subject ids in ascending order, comma-separated; a report without subjects is in no row. Triggers on
-- the links keep it exact in the transaction of every write (services, demo generator, SQL by hand;
-- deleting a report deletes its links, which fires them). Sets are sorted by a sub-select with ORDER
-- BY rather than group_concat(... ORDER BY ...), which SQLite tools older than 3.44 could not read.
-- PostgreSQL counts the links (several writers would contend for these rows).
CREATE TABLE `signalement_subject_sets` (
  `subjects` text PRIMARY KEY NOT NULL,
  `n` integer NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `signalement_subject_sets` (subjects, n)
SELECT subjects, count(*) FROM (
  SELECT (SELECT group_concat(subject_id, ',') FROM (SELECT subject_id FROM `signalement_subjects`
    WHERE signalement_id = s.id ORDER BY subject_id)) AS subjects
  FROM `signalements` AS s
) WHERE subjects IS NOT NULL GROUP BY subjects;
--> statement-breakpoint
CREATE TRIGGER `signalement_subject_sets_ai` AFTER INSERT ON `signalement_subjects` BEGIN
  INSERT INTO `signalement_subject_sets` (subjects, n)
  SELECT subjects, n FROM (
    SELECT (SELECT group_concat(subject_id, ',') FROM (SELECT subject_id FROM `signalement_subjects`
      WHERE signalement_id = new.signalement_id AND subject_id <> new.subject_id ORDER BY subject_id)) AS subjects, -1 AS n
    UNION ALL
    SELECT (SELECT group_concat(subject_id, ',') FROM (SELECT subject_id FROM `signalement_subjects`
      WHERE signalement_id = new.signalement_id ORDER BY subject_id)), 1
  ) WHERE subjects IS NOT NULL
  ON CONFLICT (subjects) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER `signalement_subject_sets_ad` AFTER DELETE ON `signalement_subjects` BEGIN
  INSERT INTO `signalement_subject_sets` (subjects, n)
  SELECT subjects, n FROM (
    SELECT (SELECT group_concat(subject_id, ',') FROM (SELECT subject_id FROM `signalement_subjects`
      WHERE signalement_id = old.signalement_id UNION SELECT old.subject_id ORDER BY 1)) AS subjects, -1 AS n
    UNION ALL
    SELECT (SELECT group_concat(subject_id, ',') FROM (SELECT subject_id FROM `signalement_subjects`
      WHERE signalement_id = old.signalement_id ORDER BY subject_id)), 1
  ) WHERE subjects IS NOT NULL
  ON CONFLICT (subjects) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
-- A link changed in place: the old link leaves the old report's set, then the new link joins the new
-- report's set (the same report or another one).
CREATE TRIGGER `signalement_subject_sets_au` AFTER UPDATE ON `signalement_subjects`
WHEN old.signalement_id IS NOT new.signalement_id OR old.subject_id IS NOT new.subject_id
BEGIN
  INSERT INTO `signalement_subject_sets` (subjects, n)
  SELECT subjects, n FROM (
    SELECT (SELECT group_concat(subject_id, ',') FROM (SELECT subject_id FROM `signalement_subjects`
      WHERE signalement_id = old.signalement_id AND NOT (signalement_id = new.signalement_id AND subject_id = new.subject_id)
      UNION SELECT old.subject_id ORDER BY 1)) AS subjects, -1 AS n
    UNION ALL
    SELECT (SELECT group_concat(subject_id, ',') FROM (SELECT subject_id FROM `signalement_subjects`
      WHERE signalement_id = old.signalement_id AND NOT (signalement_id = new.signalement_id AND subject_id = new.subject_id)
      ORDER BY subject_id)), 1
    UNION ALL
    SELECT (SELECT group_concat(subject_id, ',') FROM (SELECT subject_id FROM `signalement_subjects`
      WHERE signalement_id = new.signalement_id AND subject_id <> new.subject_id ORDER BY subject_id)), -1
    UNION ALL
    SELECT (SELECT group_concat(subject_id, ',') FROM (SELECT subject_id FROM `signalement_subjects`
      WHERE signalement_id = new.signalement_id ORDER BY subject_id)), 1
  ) WHERE subjects IS NOT NULL
  ON CONFLICT (subjects) DO UPDATE SET n = n + excluded.n;
END;
