-- Decision 110 (newborns under the mother's coverage, guide 6.5): a baby's record names its mother,
-- its birth time and its birth weight (grams, exact; sent in kilograms).
ALTER TABLE "patients" ADD COLUMN "mother_id" uuid;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "birth_time" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "birth_weight_grams" integer;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_mother_id_patients_id_fk" FOREIGN KEY ("mother_id") REFERENCES "public"."patients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "patients_mother_idx" ON "patients" USING btree ("mother_id");--> statement-breakpoint
-- Decision 111 (offline approvals, guide Table 10): an eligibility the insurer gave while the
-- exchange could not be reached, recorded at the front desk and carried by the claims that rely on it.
CREATE TABLE "offline_eligibilities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patient_id" uuid NOT NULL,
	"coverage_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"given_on" date NOT NULL,
	"recorded_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "offline_eligibilities" ADD CONSTRAINT "offline_eligibilities_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offline_eligibilities" ADD CONSTRAINT "offline_eligibilities_coverage_id_coverages_id_fk" FOREIGN KEY ("coverage_id") REFERENCES "public"."coverages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offline_eligibilities_coverage_idx" ON "offline_eligibilities" USING btree ("coverage_id","given_on");
