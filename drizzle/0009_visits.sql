CREATE TABLE "platform_rate_waiters" (
	"bucket" text NOT NULL,
	"holder" text NOT NULL,
	"until" timestamp with time zone NOT NULL,
	CONSTRAINT "platform_rate_waiters_bucket_holder_pk" PRIMARY KEY("bucket","holder")
);
--> statement-breakpoint
CREATE TABLE "visit_lists" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"source" text NOT NULL,
	"created_by" text,
	"low_threshold_percent" integer DEFAULT 20 NOT NULL,
	"rows_total" integer DEFAULT 0 NOT NULL,
	"problems" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visit_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"list_id" uuid NOT NULL,
	"status" text NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"total" integer DEFAULT 0 NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"list_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"national_id" text NOT NULL,
	"patient_id" uuid,
	"insurer_id" text,
	"service_date" date NOT NULL,
	"services" text[] DEFAULT '{}'::text[] NOT NULL,
	"registration" jsonb,
	"check_state" text DEFAULT 'waiting' NOT NULL,
	"run_id" uuid,
	"verdict" text,
	"verdict_detail" jsonb,
	"check_id" uuid,
	"checked_at" timestamp with time zone,
	"attempted_at" timestamp with time zone,
	"check_identifier" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "visit_runs" ADD CONSTRAINT "visit_runs_list_id_visit_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."visit_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_list_id_visit_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."visit_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "visit_lists_created_idx" ON "visit_lists" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "visit_runs_status_idx" ON "visit_runs" USING btree ("status","run_at");--> statement-breakpoint
CREATE INDEX "visits_list_idx" ON "visits" USING btree ("list_id","line");--> statement-breakpoint
CREATE INDEX "visits_run_state_idx" ON "visits" USING btree ("run_id","check_state");--> statement-breakpoint
CREATE INDEX "visits_date_idx" ON "visits" USING btree ("service_date");--> statement-breakpoint
CREATE INDEX "visits_patient_idx" ON "visits" USING btree ("patient_id");