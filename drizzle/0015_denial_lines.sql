CREATE TABLE "denial_lines" (
	"submission_id" uuid NOT NULL,
	"sequence" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"insurer_id" text NOT NULL,
	"outcome" text NOT NULL,
	"reason_system" text NOT NULL,
	"reason_code" text NOT NULL,
	"family" text NOT NULL,
	"service_code" text NOT NULL,
	"practitioner" text NOT NULL,
	"submitted_minor" bigint NOT NULL,
	"benefit_minor" bigint NOT NULL,
	"at_stake_minor" bigint NOT NULL,
	"currency" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "denial_rollup" (
	"grain" text NOT NULL,
	"period" timestamp with time zone NOT NULL,
	"insurer_id" text NOT NULL,
	"dimension" text NOT NULL,
	"key" text NOT NULL,
	"family" text NOT NULL,
	"outcome" text NOT NULL,
	"lines" bigint DEFAULT 0 NOT NULL,
	"submitted_minor" bigint DEFAULT 0 NOT NULL,
	"at_stake_minor" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "denial_rollup_grain_dimension_period_insurer_id_key_family_outcome_pk" PRIMARY KEY("grain","dimension","period","insurer_id","key","family","outcome")
);
--> statement-breakpoint
CREATE INDEX "denial_lines_submission_idx" ON "denial_lines" USING btree ("submission_id");--> statement-breakpoint
CREATE INDEX "denial_lines_created_idx" ON "denial_lines" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "denial_lines_reason_created_idx" ON "denial_lines" USING btree ("reason_code","created_at");--> statement-breakpoint
-- docs/decisions/076: every denied or reduced claim line, classified, kept by triggers from the
-- reader's stored view (submissions.response_view) and the Claim; the family of a reason mirrors
-- lib/denials/classify.ts (lib/denials/denials.test.ts checks both agree on every known code).
CREATE OR REPLACE FUNCTION denial_family(code text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN btrim(code) IN ('ar001', 'ar002', 'coverage-inactive') THEN 'CV'
    WHEN btrim(code) = 'price-list' THEN 'BE'
    WHEN btrim(code) = 'preauth-required' THEN 'AD'
    WHEN btrim(code) ~* '^(AD|CV|MN|SE|BE)[-_]' THEN upper(substr(btrim(code), 1, 2))
    ELSE '' END
$$;
--> statement-breakpoint
-- A MoneyView's exact minor units (its `minor`, else its value × 100); null when absent or absurd
-- (a trigger must never fail the decision it follows).
CREATE OR REPLACE FUNCTION denial_minor(m jsonb) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN jsonb_typeof(m -> 'minor') = 'number' AND abs((m ->> 'minor')::numeric) < 1e15 THEN round((m ->> 'minor')::numeric)::bigint
    WHEN jsonb_typeof(m -> 'value') = 'number' AND abs((m ->> 'value')::numeric) < 1e13 THEN round((m ->> 'value')::numeric * 100)::bigint
    END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION denial_array(a jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(a) = 'array' THEN a ELSE '[]'::jsonb END
$$;
--> statement-breakpoint
-- The denied (decision 'denied') and reduced ('partly-approved', or a reason with less paid than
-- submitted) item lines of an adjudicated claim; the first reason counts.
CREATE OR REPLACE FUNCTION denial_lines_of(s submissions)
RETURNS SETOF denial_lines
LANGUAGE sql STABLE AS $$
  SELECT s.id, l.sequence, s.created_at, coalesce(s.insurer_id, ''), l.outcome,
    coalesce(l.reason ->> 'system', ''), btrim(coalesce(l.reason ->> 'code', '')), denial_family(coalesce(l.reason ->> 'code', '')),
    coalesce(c.item -> 'productOrService' -> 'coding' -> 0 ->> 'code', ''),
    coalesce(p.who, ''),
    l.submitted, l.benefit, greatest(0, l.submitted - l.benefit), l.currency
  FROM (
    SELECT e.i AS item, e.n,
      CASE WHEN jsonb_typeof(e.i -> 'sequence') = 'number' AND (e.i ->> 'sequence')::numeric BETWEEN 0 AND 2147483647
        THEN (e.i ->> 'sequence')::numeric::integer ELSE e.n::integer END AS sequence,
      CASE WHEN e.i ->> 'decision' = 'denied' THEN 'rejected' ELSE 'reduced' END AS outcome,
      e.i ->> 'decision' AS decision,
      CASE WHEN jsonb_typeof(e.i -> 'reasons' -> 0) = 'object' THEN e.i -> 'reasons' -> 0 END AS reason,
      coalesce(denial_minor(e.i -> 'amounts' -> 'submitted'), 0) AS submitted,
      coalesce(denial_minor(e.i -> 'amounts' -> 'benefit'), 0) AS benefit,
      coalesce(e.i -> 'amounts' -> 'submitted' ->> 'currency', e.i -> 'amounts' -> 'benefit' ->> 'currency', s.currency, 'SAR') AS currency
    FROM jsonb_array_elements(denial_array(s.response_view -> 'items')) WITH ORDINALITY e (i, n)
    WHERE jsonb_typeof(e.i) = 'object' AND coalesce(e.i ->> 'kind', 'item') = 'item'
  ) l
  LEFT JOIN LATERAL (
    SELECT ci AS item FROM jsonb_array_elements(denial_array(s.claim -> 'item')) ci
    WHERE jsonb_typeof(ci) = 'object' AND ci -> 'sequence' = to_jsonb(l.sequence) LIMIT 1
  ) c ON true
  LEFT JOIN LATERAL (
    SELECT coalesce(t -> 'provider' -> 'identifier' ->> 'value', t -> 'provider' ->> 'display', t -> 'provider' ->> 'reference') AS who
    FROM jsonb_array_elements(denial_array(s.claim -> 'careTeam')) t
    WHERE jsonb_typeof(t) = 'object'
      AND t -> 'sequence' = coalesce(CASE WHEN jsonb_typeof(c.item -> 'careTeamSequence') = 'array' THEN c.item -> 'careTeamSequence' -> 0 END, '1'::jsonb)
    LIMIT 1
  ) p ON true
  WHERE s.kind = 'claim' AND s.status IN ('complete', 'partial', 'denied')
    AND (l.decision IN ('denied', 'partly-approved') OR (l.reason IS NOT NULL AND l.submitted > l.benefit))
$$;
--> statement-breakpoint
-- Whether an update can change a claim's lines (most updates are leases and attempts: skipped).
CREATE OR REPLACE FUNCTION denial_changed(o submissions, n submissions) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT o.kind IS DISTINCT FROM n.kind OR o.status IS DISTINCT FROM n.status OR o.insurer_id IS DISTINCT FROM n.insurer_id
    OR o.created_at IS DISTINCT FROM n.created_at OR o.currency IS DISTINCT FROM n.currency
    OR o.response_view IS DISTINCT FROM n.response_view OR o.claim IS DISTINCT FROM n.claim
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION denial_lines_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO denial_lines SELECT x.* FROM new_rows n, denial_lines_of(n) x;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION denial_lines_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM denial_lines d USING old_rows o JOIN new_rows n ON n.id = o.id
    WHERE d.submission_id = o.id AND denial_changed(o, n);
  INSERT INTO denial_lines SELECT x.* FROM old_rows o JOIN new_rows n ON n.id = o.id, denial_lines_of(n) x
    WHERE denial_changed(o, n);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION denial_lines_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM denial_lines d USING old_rows o WHERE d.submission_id = o.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER submissions_denials_insert AFTER INSERT ON submissions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION denial_lines_insert();
--> statement-breakpoint
CREATE TRIGGER submissions_denials_update AFTER UPDATE ON submissions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION denial_lines_update();
--> statement-breakpoint
CREATE TRIGGER submissions_denials_delete AFTER DELETE ON submissions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION denial_lines_delete();
--> statement-breakpoint
-- A line's contribution to denial_rollup: per UTC day and month, once for each dimension; per UTC
-- hour for the trend (no family, no key).
CREATE OR REPLACE FUNCTION denial_contribution(l denial_lines, weight integer)
RETURNS TABLE (grain text, period timestamptz, insurer_id text, dimension text, key text, family text, outcome text,
  sign integer, submitted bigint, at_stake bigint)
LANGUAGE sql STABLE AS $$
  SELECT d.grain, date_trunc(d.grain, l.created_at, 'UTC'), l.insurer_id, d.dimension, d.key, d.family, l.outcome,
    weight, weight * l.submitted_minor, weight * l.at_stake_minor
  FROM (VALUES
    ('day', 'family', l.family, l.family), ('day', 'reason', l.reason_code, l.family), ('day', 'insurer', l.insurer_id, l.family),
    ('day', 'service', l.service_code, l.family), ('day', 'practitioner', l.practitioner, l.family),
    ('month', 'family', l.family, l.family), ('month', 'reason', l.reason_code, l.family), ('month', 'insurer', l.insurer_id, l.family),
    ('month', 'service', l.service_code, l.family), ('month', 'practitioner', l.practitioner, l.family),
    ('hour', 'trend', '', '')) d (grain, dimension, key, family)
$$;
--> statement-breakpoint
-- One grouped upsert per statement, rows locked in key order (as 0006_dashboard_lock_order). Lines
-- are only ever inserted and deleted (a changed claim's lines are replaced), never updated; both
-- triggers name their transition table `changed_rows`, the operation gives the sign.
CREATE OR REPLACE FUNCTION denial_rollup_apply() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO denial_rollup AS r (grain, period, insurer_id, dimension, key, family, outcome, lines, submitted_minor, at_stake_minor)
  SELECT c.grain, c.period, c.insurer_id, c.dimension, c.key, c.family, c.outcome, sum(c.sign), sum(c.submitted), sum(c.at_stake)
  FROM (SELECT x.* FROM changed_rows l, denial_contribution(l, CASE WHEN TG_OP = 'DELETE' THEN -1 ELSE 1 END) x) c
  GROUP BY c.grain, c.period, c.insurer_id, c.dimension, c.key, c.family, c.outcome
  ORDER BY c.grain, c.dimension, c.period, c.insurer_id, c.key, c.family, c.outcome
  ON CONFLICT (grain, dimension, period, insurer_id, key, family, outcome) DO UPDATE SET
    lines = r.lines + excluded.lines, submitted_minor = r.submitted_minor + excluded.submitted_minor,
    at_stake_minor = r.at_stake_minor + excluded.at_stake_minor;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER denial_lines_rollup_insert AFTER INSERT ON denial_lines
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION denial_rollup_apply();
--> statement-breakpoint
CREATE TRIGGER denial_lines_rollup_delete AFTER DELETE ON denial_lines
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION denial_rollup_apply();
--> statement-breakpoint
-- Backfill: every claim already decided (the triggers keep the rollup from the first line on).
INSERT INTO denial_lines SELECT x.* FROM submissions s, denial_lines_of(s) x
  WHERE s.kind = 'claim' AND s.status IN ('complete', 'partial', 'denied');
