-- A narrow copy of signalements.search_text, one row per report (docs/decisions/0064-search-texts-copy.md):
-- the bounded count of common words (decision 0022, strpos since 0062) reads it instead of the reports'
-- table, whose rows it walked up to their 27th column, each page holding a fraction of the texts. Kept in
-- step by a trigger in the transaction that writes the report; removed with it (ON DELETE CASCADE).
-- PostgreSQL only: SQLite counts in its FTS5 indexes. server/db/search.ts reads it (countSearchInTexts).
CREATE TABLE "signalement_search_texts" (
  "id" integer PRIMARY KEY REFERENCES "signalements" ("id") ON DELETE CASCADE,
  "search_text" text NOT NULL
);
--> statement-breakpoint
INSERT INTO "signalement_search_texts" ("id", "search_text") SELECT "id", "search_text" FROM "signalements";
--> statement-breakpoint
CREATE FUNCTION "signalement_search_texts_copy"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "signalement_search_texts" ("id", "search_text") VALUES (NEW."id", NEW."search_text")
  ON CONFLICT ("id") DO UPDATE SET "search_text" = excluded."search_text";
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "signalement_search_texts_ai" AFTER INSERT ON "signalements"
FOR EACH ROW EXECUTE FUNCTION "signalement_search_texts_copy"();
--> statement-breakpoint
CREATE TRIGGER "signalement_search_texts_au" AFTER UPDATE OF "search_text" ON "signalements"
FOR EACH ROW WHEN (OLD."search_text" IS DISTINCT FROM NEW."search_text")
EXECUTE FUNCTION "signalement_search_texts_copy"();
