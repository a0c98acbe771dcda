-- Substring search over signalements.search_text (already lower-cased and accent-free) through a
-- pg_trgm GIN index, which serves LIKE '%term%'. server/db/search.ts builds the condition.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "signalements_search_trgm_idx" ON "signalements" USING gin ("search_text" gin_trgm_ops);
