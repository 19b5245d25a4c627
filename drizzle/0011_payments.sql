CREATE TABLE "insurer_filing_windows" (
	"insurer_id" text PRIMARY KEY NOT NULL,
	"submission_days" integer NOT NULL,
	"resubmission_days" integer NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_notices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"remittance_id" uuid NOT NULL,
	"payment_status" text NOT NULL,
	"outcome" text NOT NULL,
	"request_id" text NOT NULL,
	"notice" jsonb NOT NULL,
	"error" text,
	"sent_by" text,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "remittance_lines" (
	"remittance_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"request_platform_id" text,
	"request_identifier_system" text,
	"request_identifier_value" text,
	"type" text,
	"amount_minor" bigint NOT NULL,
	"submission_id" uuid,
	CONSTRAINT "remittance_lines_remittance_id_position_pk" PRIMARY KEY("remittance_id","position")
);
--> statement-breakpoint
CREATE TABLE "remittances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"platform_id" text NOT NULL,
	"payment_identifier" text,
	"insurer_id" text,
	"payment_date" date NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"resource" jsonb NOT NULL,
	"source" text NOT NULL,
	"message_id" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"cleared_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "insurer_filing_windows" ADD CONSTRAINT "insurer_filing_windows_insurer_id_insurers_id_fk" FOREIGN KEY ("insurer_id") REFERENCES "public"."insurers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_notices" ADD CONSTRAINT "payment_notices_remittance_id_remittances_id_fk" FOREIGN KEY ("remittance_id") REFERENCES "public"."remittances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remittance_lines" ADD CONSTRAINT "remittance_lines_remittance_id_remittances_id_fk" FOREIGN KEY ("remittance_id") REFERENCES "public"."remittances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_notices_remittance_idx" ON "payment_notices" USING btree ("remittance_id","sent_at");--> statement-breakpoint
CREATE INDEX "remittance_lines_submission_idx" ON "remittance_lines" USING btree ("submission_id");--> statement-breakpoint
CREATE UNIQUE INDEX "remittances_platform_id_uq" ON "remittances" USING btree ("platform_id");--> statement-breakpoint
CREATE INDEX "remittances_payment_date_idx" ON "remittances" USING btree ("payment_date" DESC NULLS LAST);