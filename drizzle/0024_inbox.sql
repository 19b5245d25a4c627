CREATE TABLE "inbox_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message_id" text NOT NULL,
	"source" text NOT NULL,
	"facility_id" text,
	"event" text,
	"body" text NOT NULL,
	"fetched" text,
	"summary" jsonb,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'received' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_error" text,
	"submission_id" uuid,
	"settled_by" text,
	"settled_at" timestamp with time zone,
	"settled_reason" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbox_polls" (
	"port" text PRIMARY KEY NOT NULL,
	"request_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "inbox_messages_message_id" ON "inbox_messages" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "inbox_messages_due" ON "inbox_messages" USING btree ("next_attempt_at") WHERE status in ('received','failed');--> statement-breakpoint
CREATE INDEX "inbox_messages_status" ON "inbox_messages" USING btree ("status","received_at");
