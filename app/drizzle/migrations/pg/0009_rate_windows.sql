CREATE TABLE "rate_windows" (
	"key" text PRIMARY KEY NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_windows_started_idx" ON "rate_windows" USING btree ("started_at");