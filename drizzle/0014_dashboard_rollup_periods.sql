CREATE TABLE "adjudication_rollup" (
	"grain" text NOT NULL,
	"period" timestamp with time zone NOT NULL,
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
	CONSTRAINT "adjudication_rollup_grain_period_insurer_id_kind_category_status_reason_pk" PRIMARY KEY("grain","period","insurer_id","kind","category","status","reason")
);
--> statement-breakpoint
-- Issue 19: the adjudication rollup at coarser grains (see lib/db/schema/dashboard.ts): 'day' and
-- 'month' rows with every dimension; 'hour' rows only for adjudicated claims (complete, partial,
-- denied), with status 'decided' and neither category nor reason: what the trend reads.
-- Same contributions as adjudication_hourly (dashboard_contribution), same lock order (0006).
CREATE OR REPLACE FUNCTION dashboard_period_contribution(s submissions, weight integer)
RETURNS TABLE (grain text, period timestamptz, insurer_id text, kind text, category text, status text, reason text, sign integer,
  submitted bigint, eligible bigint, benefit bigint, copay bigint)
LANGUAGE sql STABLE AS $$
  SELECT g.grain, date_trunc(g.grain, c.hour, 'UTC'), c.insurer_id, c.kind,
    CASE WHEN g.grain = 'hour' THEN '' ELSE c.category END,
    CASE WHEN g.grain = 'hour' THEN 'decided' ELSE c.status END,
    CASE WHEN g.grain = 'hour' THEN '' ELSE c.reason END,
    c.sign, c.submitted, c.eligible, c.benefit, c.copay
  FROM dashboard_contribution(s, weight) c, (VALUES ('hour'), ('day'), ('month')) g (grain)
  WHERE g.grain <> 'hour' OR (c.kind = 'claim' AND c.status IN ('complete', 'partial', 'denied'))
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dashboard_periods_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO adjudication_rollup AS a (grain, period, insurer_id, kind, category, status, reason, count, submitted_minor, eligible_minor, benefit_minor, copay_minor)
  SELECT c.grain, c.period, c.insurer_id, c.kind, c.category, c.status, c.reason, sum(c.sign), sum(c.sign * c.submitted),
    sum(c.sign * c.eligible), sum(c.sign * c.benefit), sum(c.sign * c.copay)
  FROM (SELECT x.* FROM new_rows n, dashboard_period_contribution(n, 1) x) c
  GROUP BY c.grain, c.period, c.insurer_id, c.kind, c.category, c.status, c.reason
  HAVING sum(c.sign) <> 0 OR sum(c.sign * c.submitted) <> 0 OR sum(c.sign * c.eligible) <> 0 OR sum(c.sign * c.benefit) <> 0
    OR sum(c.sign * c.copay) <> 0
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT (grain, period, insurer_id, kind, category, status, reason) DO UPDATE SET
    count = a.count + excluded.count,
    submitted_minor = a.submitted_minor + excluded.submitted_minor,
    eligible_minor = a.eligible_minor + excluded.eligible_minor,
    benefit_minor = a.benefit_minor + excluded.benefit_minor,
    copay_minor = a.copay_minor + excluded.copay_minor;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dashboard_periods_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO adjudication_rollup AS a (grain, period, insurer_id, kind, category, status, reason, count, submitted_minor, eligible_minor, benefit_minor, copay_minor)
  SELECT c.grain, c.period, c.insurer_id, c.kind, c.category, c.status, c.reason, sum(c.sign), sum(c.sign * c.submitted),
    sum(c.sign * c.eligible), sum(c.sign * c.benefit), sum(c.sign * c.copay)
  FROM (SELECT x.* FROM old_rows o, dashboard_period_contribution(o, -1) x
    UNION ALL SELECT x.* FROM new_rows n, dashboard_period_contribution(n, 1) x) c
  GROUP BY c.grain, c.period, c.insurer_id, c.kind, c.category, c.status, c.reason
  HAVING sum(c.sign) <> 0 OR sum(c.sign * c.submitted) <> 0 OR sum(c.sign * c.eligible) <> 0 OR sum(c.sign * c.benefit) <> 0
    OR sum(c.sign * c.copay) <> 0
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT (grain, period, insurer_id, kind, category, status, reason) DO UPDATE SET
    count = a.count + excluded.count,
    submitted_minor = a.submitted_minor + excluded.submitted_minor,
    eligible_minor = a.eligible_minor + excluded.eligible_minor,
    benefit_minor = a.benefit_minor + excluded.benefit_minor,
    copay_minor = a.copay_minor + excluded.copay_minor;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dashboard_periods_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO adjudication_rollup AS a (grain, period, insurer_id, kind, category, status, reason, count, submitted_minor, eligible_minor, benefit_minor, copay_minor)
  SELECT c.grain, c.period, c.insurer_id, c.kind, c.category, c.status, c.reason, sum(c.sign), sum(c.sign * c.submitted),
    sum(c.sign * c.eligible), sum(c.sign * c.benefit), sum(c.sign * c.copay)
  FROM (SELECT x.* FROM old_rows o, dashboard_period_contribution(o, -1) x) c
  GROUP BY c.grain, c.period, c.insurer_id, c.kind, c.category, c.status, c.reason
  HAVING sum(c.sign) <> 0 OR sum(c.sign * c.submitted) <> 0 OR sum(c.sign * c.eligible) <> 0 OR sum(c.sign * c.benefit) <> 0
    OR sum(c.sign * c.copay) <> 0
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT (grain, period, insurer_id, kind, category, status, reason) DO UPDATE SET
    count = a.count + excluded.count,
    submitted_minor = a.submitted_minor + excluded.submitted_minor,
    eligible_minor = a.eligible_minor + excluded.eligible_minor,
    benefit_minor = a.benefit_minor + excluded.benefit_minor,
    copay_minor = a.copay_minor + excluded.copay_minor;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER submissions_periods_insert AFTER INSERT ON submissions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_periods_insert();
--> statement-breakpoint
CREATE TRIGGER submissions_periods_update AFTER UPDATE ON submissions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_periods_update();
--> statement-breakpoint
CREATE TRIGGER submissions_periods_delete AFTER DELETE ON submissions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_periods_delete();
--> statement-breakpoint
-- Backfill from the hourly rollup (the same contributions, already grouped; the triggers cover every change from here on).
INSERT INTO adjudication_rollup (grain, period, insurer_id, kind, category, status, reason, count, submitted_minor, eligible_minor, benefit_minor, copay_minor)
  SELECT g.grain, date_trunc(g.grain, h.hour, 'UTC'), h.insurer_id, h.kind,
    CASE WHEN g.grain = 'hour' THEN '' ELSE h.category END, CASE WHEN g.grain = 'hour' THEN 'decided' ELSE h.status END,
    CASE WHEN g.grain = 'hour' THEN '' ELSE h.reason END,
    sum(h.count), sum(h.submitted_minor), sum(h.eligible_minor), sum(h.benefit_minor), sum(h.copay_minor)
  FROM adjudication_hourly h, (VALUES ('hour'), ('day'), ('month')) g (grain)
  WHERE g.grain <> 'hour' OR (h.kind = 'claim' AND h.status IN ('complete', 'partial', 'denied'))
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  HAVING sum(h.count) <> 0 OR sum(h.submitted_minor) <> 0 OR sum(h.eligible_minor) <> 0 OR sum(h.benefit_minor) <> 0 OR sum(h.copay_minor) <> 0;
