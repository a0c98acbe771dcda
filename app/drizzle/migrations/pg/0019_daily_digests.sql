CREATE TABLE "daily_digests" (
	"day" integer NOT NULL,
	"sent_at" timestamp (3) with time zone NOT NULL,
	"mails" integer NOT NULL,
	CONSTRAINT "daily_digests_day_pk" PRIMARY KEY("day")
);
--> statement-breakpoint
ALTER TABLE "utilisateurs" ADD COLUMN "digest_enabled" boolean DEFAULT true NOT NULL;