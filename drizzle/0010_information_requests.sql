CREATE TABLE "information_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"platform_request_id" text NOT NULL,
	"submission_id" uuid NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"asks" jsonb NOT NULL,
	"attachment_types" jsonb NOT NULL,
	"due_at" timestamp with time zone,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb NOT NULL,
	"answer_text" text,
	"answer_attachment_ids" jsonb,
	"communication" jsonb,
	"answered_at" timestamp with time zone,
	"answered_by" text,
	"answer_request_id" text,
	"acknowledged_at" timestamp with time zone,
	"acknowledgement" jsonb
);
--> statement-breakpoint
ALTER TABLE "information_requests" ADD CONSTRAINT "information_requests_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "information_requests_platform_uq" ON "information_requests" USING btree ("platform_request_id");--> statement-breakpoint
CREATE INDEX "information_requests_submission_idx" ON "information_requests" USING btree ("submission_id","received_at");--> statement-breakpoint
CREATE INDEX "information_requests_open_idx" ON "information_requests" USING btree ("due_at") WHERE "information_requests"."status" = 'open';