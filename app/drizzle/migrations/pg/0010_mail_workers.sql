CREATE TABLE "mail_workers" (
	"id" text PRIMARY KEY NOT NULL,
	"beat_at" timestamp (3) with time zone NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "claimed_by" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "claimed_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "mail_outbox_sent_idx" ON "mail_outbox" USING btree ("status","sent_at");