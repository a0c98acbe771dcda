-- A word index beside the trigram index (0002), for searches of common words: counting 200,000
-- matches of a long word through trigrams reads the long position lists of ten common trigrams,
-- where a word index reads one list of documents. FTS5's 'ascii' tokenizer splits on ASCII characters
-- other than letters and digits and keeps every other character in its token, a rule that
-- server/db/search.ts repeats exactly. No positions (detail=none): the search only asks which reports
-- hold a word.
-- A search word is a substring, not a whole word: 'rison' must find 'raharison'. search_terms lists
-- every token ever indexed, with a trigram index of its own, so that a search word is first turned into
-- the tokens that contain it (server/db/search.ts writes new tokens with each report, see
-- recordSearchTerms). Tokens are never removed: a token no longer in any report matches nothing.
-- Hand-written like 0002: Drizzle does not model virtual tables.
CREATE VIRTUAL TABLE `signalements_words` USING fts5(search_text, content='signalements', content_rowid='id', tokenize='ascii', detail=none, columnsize=0);
--> statement-breakpoint
INSERT INTO `signalements_words`(`signalements_words`) VALUES ('rebuild');
--> statement-breakpoint
CREATE TRIGGER `signalements_words_ai` AFTER INSERT ON `signalements` BEGIN
  INSERT INTO `signalements_words`(rowid, search_text) VALUES (new.id, new.search_text);
END;
--> statement-breakpoint
CREATE TRIGGER `signalements_words_ad` AFTER DELETE ON `signalements` BEGIN
  INSERT INTO `signalements_words`(`signalements_words`, rowid, search_text) VALUES ('delete', old.id, old.search_text);
END;
--> statement-breakpoint
CREATE TRIGGER `signalements_words_au` AFTER UPDATE OF search_text ON `signalements` BEGIN
  INSERT INTO `signalements_words`(`signalements_words`, rowid, search_text) VALUES ('delete', old.id, old.search_text);
  INSERT INTO `signalements_words`(rowid, search_text) VALUES (new.id, new.search_text);
END;
--> statement-breakpoint
CREATE VIRTUAL TABLE `signalements_words_vocab` USING fts5vocab(`signalements_words`, 'row');
--> statement-breakpoint
CREATE TABLE `search_terms` (
  `id` integer PRIMARY KEY,
  `term` text NOT NULL UNIQUE
);
--> statement-breakpoint
CREATE VIRTUAL TABLE `search_terms_fts` USING fts5(term, content='search_terms', content_rowid='id', tokenize='trigram');
--> statement-breakpoint
CREATE TRIGGER `search_terms_ai` AFTER INSERT ON `search_terms` BEGIN
  INSERT INTO `search_terms_fts`(rowid, term) VALUES (new.id, new.term);
END;
--> statement-breakpoint
CREATE TRIGGER `search_terms_ad` AFTER DELETE ON `search_terms` BEGIN
  INSERT INTO `search_terms_fts`(`search_terms_fts`, rowid, term) VALUES ('delete', old.id, old.term);
END;
--> statement-breakpoint
INSERT INTO `search_terms`(`term`) SELECT `term` FROM `signalements_words_vocab`;
