CREATE TABLE "practitioners" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"facility_id" uuid,
	"license" text NOT NULL,
	"given_name" text NOT NULL,
	"family_name" text NOT NULL,
	"specialty" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "document_type" text DEFAULT 'nationalId' NOT NULL;--> statement-breakpoint
ALTER TABLE "practitioners" ADD CONSTRAINT "practitioners_facility_id_facilities_id_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "practitioners_license_uq" ON "practitioners" USING btree (lower("license"));--> statement-breakpoint
CREATE INDEX "practitioners_facility_idx" ON "practitioners" USING btree ("facility_id");--> statement-breakpoint
-- Numbers starting with 2 are Iqama numbers (the registry held only national IDs and Iqamas until now).
UPDATE "patients" SET "document_type" = 'iqama' WHERE "national_id" LIKE '2%';
