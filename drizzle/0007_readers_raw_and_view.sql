ALTER TABLE "submissions" ADD COLUMN "response_view" jsonb;--> statement-breakpoint
ALTER TABLE "eligibility_checks" ADD COLUMN "response_view" jsonb;--> statement-breakpoint
ALTER TABLE "insurers" ADD COLUMN "license" text;