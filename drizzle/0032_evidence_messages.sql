-- Decision 115: information the clinic sends the payer unasked about a claim or an authorization
-- (a Communication without a CommunicationRequest) and the payer's acknowledgement of it.
CREATE TABLE "evidence_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"submission_id" uuid NOT NULL,
	"communication_id" text NOT NULL,
	"status" text DEFAULT 'sending' NOT NULL,
	"text" text,
	"attachment_ids" jsonb NOT NULL,
	"sequences" jsonb NOT NULL,
	"communication" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text,
	"channel" text DEFAULT 'ui' NOT NULL,
	"sent_at" timestamp with time zone,
	"send_request_id" text,
	"acknowledged_at" timestamp with time zone,
	"acknowledgement" jsonb
);
--> statement-breakpoint
ALTER TABLE "evidence_messages" ADD CONSTRAINT "evidence_messages_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "evidence_messages_communication_uq" ON "evidence_messages" USING btree ("communication_id");--> statement-breakpoint
CREATE INDEX "evidence_messages_submission_idx" ON "evidence_messages" USING btree ("submission_id","created_at");
