ALTER TABLE "coverages" ADD COLUMN "network" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "coverages" ADD COLUMN "coverage_class" text DEFAULT '' NOT NULL;