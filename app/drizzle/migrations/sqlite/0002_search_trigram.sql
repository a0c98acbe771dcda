-- Substring search over signalements.search_text (already lower-cased and accent-free) through an
-- FTS5 trigram index kept in step by triggers. Drizzle does not model virtual tables, hence this
-- hand-written migration; server/db/search.ts is the only code that queries it.
CREATE VIRTUAL TABLE `signalements_fts` USING fts5(search_text, content='signalements', content_rowid='id', tokenize='trigram');
--> statement-breakpoint
INSERT INTO `signalements_fts`(rowid, search_text) SELECT id, search_text FROM `signalements`;
--> statement-breakpoint
CREATE TRIGGER `signalements_fts_ai` AFTER INSERT ON `signalements` BEGIN
  INSERT INTO `signalements_fts`(rowid, search_text) VALUES (new.id, new.search_text);
END;
--> statement-breakpoint
CREATE TRIGGER `signalements_fts_ad` AFTER DELETE ON `signalements` BEGIN
  INSERT INTO `signalements_fts`(`signalements_fts`, rowid, search_text) VALUES ('delete', old.id, old.search_text);
END;
--> statement-breakpoint
CREATE TRIGGER `signalements_fts_au` AFTER UPDATE OF search_text ON `signalements` BEGIN
  INSERT INTO `signalements_fts`(`signalements_fts`, rowid, search_text) VALUES ('delete', old.id, old.search_text);
  INSERT INTO `signalements_fts`(rowid, search_text) VALUES (new.id, new.search_text);
END;
