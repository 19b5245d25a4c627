CREATE TABLE "platform_rate_blocks" (
	"bucket" text PRIMARY KEY NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"hits" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_rate_permits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"bucket" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "live_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"submission_id" uuid,
	"submission_kind" text,
	"status" text,
	"audience" text[] NOT NULL,
	"payload" jsonb
);
--> statement-breakpoint
CREATE TABLE "submission_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"submission_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"source" text NOT NULL,
	"request_id" text,
	"detail" jsonb
);
--> statement-breakpoint
CREATE TABLE "submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"identifier_system" text,
	"identifier_value" text,
	"patient_id" text NOT NULL,
	"insurer_id" text,
	"claim" jsonb NOT NULL,
	"platform_id" text,
	"response" jsonb,
	"errors" jsonb,
	"total_minor" integer,
	"currency" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"last_request_id" text,
	"replaces_id" uuid,
	"authorization_id" uuid,
	"channel" text DEFAULT 'ui' NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "webhook_receipts" (
	"webhook_id" text PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"event" text NOT NULL,
	"claim_id" text,
	"status" text,
	"result" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "submission_events" ADD CONSTRAINT "submission_events_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "platform_rate_permits_bucket_at_idx" ON "platform_rate_permits" USING btree ("bucket","at");--> statement-breakpoint
CREATE INDEX "live_events_at_idx" ON "live_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "submission_events_submission_idx" ON "submission_events" USING btree ("submission_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "submissions_identifier_uq" ON "submissions" USING btree ("identifier_system","identifier_value");--> statement-breakpoint
CREATE UNIQUE INDEX "submissions_platform_id_uq" ON "submissions" USING btree ("platform_id");--> statement-breakpoint
CREATE INDEX "submissions_due_idx" ON "submissions" USING btree ("next_attempt_at") WHERE "submissions"."next_attempt_at" is not null;--> statement-breakpoint
CREATE INDEX "submissions_status_created_idx" ON "submissions" USING btree ("status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "submissions_patient_idx" ON "submissions" USING btree ("patient_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "submissions_created_idx" ON "submissions" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);