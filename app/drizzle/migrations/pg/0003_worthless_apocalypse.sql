CREATE TABLE "signalement_day_counts" (
	"dimension" text NOT NULL,
	"ref_id" integer NOT NULL,
	"day" integer NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "signalement_day_counts_dimension_ref_id_day_pk" PRIMARY KEY("dimension","ref_id","day")
);
