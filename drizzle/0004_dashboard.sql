CREATE TABLE "adjudication_hourly" (
	"hour" timestamp with time zone NOT NULL,
	"insurer_id" text NOT NULL,
	"kind" text NOT NULL,
	"category" text NOT NULL,
	"status" text NOT NULL,
	"reason" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"submitted_minor" bigint DEFAULT 0 NOT NULL,
	"eligible_minor" bigint DEFAULT 0 NOT NULL,
	"benefit_minor" bigint DEFAULT 0 NOT NULL,
	"copay_minor" bigint DEFAULT 0 NOT NULL,
	"decided_count" bigint DEFAULT 0 NOT NULL,
	"decide_seconds" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "adjudication_hourly_hour_insurer_id_kind_category_status_reason_pk" PRIMARY KEY("hour","insurer_id","kind","category","status","reason")
);
--> statement-breakpoint
CREATE TABLE "dashboard_procedure_categories" (
	"code" text PRIMARY KEY NOT NULL,
	"category" text NOT NULL,
	"sequence" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "adjudication_hourly_kind_hour_idx" ON "adjudication_hourly" USING btree ("kind","hour");