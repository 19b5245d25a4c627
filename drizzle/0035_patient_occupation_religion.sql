-- Decision 118: the patient's occupation and religion, asked at registration from the catalogue's
-- lists and sent as Patient extension-occupation (required; "unknown" when not asked) and
-- extension-patient-religion (only when given). Null for patients registered before.
ALTER TABLE "patients" ADD COLUMN "occupation" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "religion" text;
