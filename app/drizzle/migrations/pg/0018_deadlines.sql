CREATE TABLE "business_days" (
	"day" integer NOT NULL,
	"ordinal" integer NOT NULL,
	CONSTRAINT "business_days_day_pk" PRIMARY KEY("day")
);
--> statement-breakpoint
CREATE TABLE "delais_traitement" (
	"niveau_id" integer NOT NULL,
	"jours" integer,
	"updated_at" timestamp (3) with time zone,
	"updated_by_id" integer,
	CONSTRAINT "delais_traitement_niveau_id_pk" PRIMARY KEY("niveau_id")
);
--> statement-breakpoint
ALTER TABLE "signalements" ADD COLUMN "due_day" integer DEFAULT 2147483647 NOT NULL;--> statement-breakpoint
ALTER TABLE "delais_traitement" ADD CONSTRAINT "delais_traitement_niveau_id_niveaux_id_fk" FOREIGN KEY ("niveau_id") REFERENCES "public"."niveaux"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delais_traitement" ADD CONSTRAINT "delais_traitement_updated_by_id_utilisateurs_id_fk" FOREIGN KEY ("updated_by_id") REFERENCES "public"."utilisateurs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "business_days_ordinal_idx" ON "business_days" USING btree ("ordinal","day");--> statement-breakpoint
CREATE INDEX "signalements_due_day_idx" ON "signalements" USING btree ("due_day","id");