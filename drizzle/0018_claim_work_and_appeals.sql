CREATE TABLE "claim_work" (
	"submission_id" uuid PRIMARY KEY NOT NULL,
	"assignee_id" uuid,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claim_work_notes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"submission_id" uuid NOT NULL,
	"author_id" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "appeal_of_id" uuid;--> statement-breakpoint
ALTER TABLE "claim_work" ADD CONSTRAINT "claim_work_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_work" ADD CONSTRAINT "claim_work_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_work_notes" ADD CONSTRAINT "claim_work_notes_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "claim_work_notes_submission_idx" ON "claim_work_notes" USING btree ("submission_id","created_at");--> statement-breakpoint
CREATE INDEX "submissions_appeal_of_idx" ON "submissions" USING btree ("appeal_of_id") WHERE "submissions"."appeal_of_id" is not null;--> statement-breakpoint
-- docs/decisions/082: the trend without an insurer filter reads one row per UTC hour and outcome
-- ('trend-all', insurer ''), four times fewer than per insurer ('trend'), so the 730-day trend stays
-- within the dashboard's budget. Same sums; kept by the same trigger.
CREATE OR REPLACE FUNCTION denial_contribution(l denial_lines, weight integer)
RETURNS TABLE (grain text, period timestamptz, insurer_id text, dimension text, key text, family text, outcome text,
  sign integer, submitted bigint, at_stake bigint)
LANGUAGE sql STABLE AS $$
  SELECT d.grain, date_trunc(d.grain, l.created_at, 'UTC'), d.insurer_id, d.dimension, d.key, d.family, l.outcome,
    weight, weight * l.submitted_minor, weight * l.at_stake_minor
  FROM (VALUES
    ('day', 'family', l.family, l.family, l.insurer_id), ('day', 'reason', l.reason_code, l.family, l.insurer_id), ('day', 'insurer', l.insurer_id, l.family, l.insurer_id),
    ('day', 'service', l.service_code, l.family, l.insurer_id), ('day', 'practitioner', l.practitioner, l.family, l.insurer_id),
    ('month', 'family', l.family, l.family, l.insurer_id), ('month', 'reason', l.reason_code, l.family, l.insurer_id), ('month', 'insurer', l.insurer_id, l.family, l.insurer_id),
    ('month', 'service', l.service_code, l.family, l.insurer_id), ('month', 'practitioner', l.practitioner, l.family, l.insurer_id),
    ('hour', 'trend', '', '', l.insurer_id), ('hour', 'trend-all', '', '', '')) d (grain, dimension, key, family, insurer_id)
$$;
--> statement-breakpoint
INSERT INTO denial_rollup (grain, period, insurer_id, dimension, key, family, outcome, lines, submitted_minor, at_stake_minor)
  SELECT 'hour', period, '', 'trend-all', '', '', outcome, sum(lines), sum(submitted_minor), sum(at_stake_minor)
  FROM denial_rollup WHERE grain = 'hour' AND dimension = 'trend'
  GROUP BY period, outcome
  HAVING sum(lines) <> 0 OR sum(at_stake_minor) <> 0;
