CREATE TABLE "signalement_assignees" (
	"signalement_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"assigned_by_id" integer,
	"assigned_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "signalement_assignees_signalement_id_user_id_pk" PRIMARY KEY("signalement_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "signalement_assignees" ADD CONSTRAINT "signalement_assignees_signalement_id_signalements_id_fk" FOREIGN KEY ("signalement_id") REFERENCES "public"."signalements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signalement_assignees" ADD CONSTRAINT "signalement_assignees_user_id_utilisateurs_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."utilisateurs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signalement_assignees" ADD CONSTRAINT "signalement_assignees_assigned_by_id_utilisateurs_id_fk" FOREIGN KEY ("assigned_by_id") REFERENCES "public"."utilisateurs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "signalement_assignees_user_idx" ON "signalement_assignees" USING btree ("user_id","signalement_id");