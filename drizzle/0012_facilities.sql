CREATE TABLE "facilities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"name_en" text NOT NULL,
	"name_ar" text NOT NULL,
	"provider_license" text NOT NULL,
	"cert_file" text NOT NULL,
	"key_file" text NOT NULL,
	"oauth_client_id" text,
	"oauth_client_secret_file" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "facility_id" uuid;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "facility_id" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "facilities_code_idx" ON "facilities" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "facilities_license_idx" ON "facilities" USING btree (lower("provider_license"));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_facility_id_facilities_id_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_facility_id_facilities_id_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE no action ON UPDATE no action;