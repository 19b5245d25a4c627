CREATE TABLE "decision_time_histogram" (
	"grain" text NOT NULL,
	"period" timestamp with time zone NOT NULL,
	"insurer_id" text NOT NULL,
	"bucket" smallint NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "decision_time_histogram_grain_period_insurer_id_bucket_pk" PRIMARY KEY("grain","period","insurer_id","bucket")
);
--> statement-breakpoint
-- Issue 19: the dashboard's median decision time from a histogram instead of every decided claim.
-- Bucket 0: under 1 s; bucket b >= 1: [1.05^(b-1), 1.05^b) seconds; 400 and above go to 400.
CREATE OR REPLACE FUNCTION dashboard_decision_bucket(seconds double precision) RETURNS smallint
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN seconds IS NULL OR seconds < 1 THEN 0
    ELSE least(400, 1 + floor(ln(seconds) / ln(1.05)))::smallint END
$$;
--> statement-breakpoint
-- A claim's contribution: one row per grain (UTC hour, day and month of created_at), or none when
-- it is not a claim or lacks sent_at or decided_at.
CREATE OR REPLACE FUNCTION dashboard_decision_contribution(s submissions, weight integer)
RETURNS TABLE (grain text, period timestamptz, insurer_id text, bucket smallint, sign integer)
LANGUAGE sql STABLE AS $$
  SELECT g.grain, date_trunc(g.grain, s.created_at, 'UTC'), coalesce(s.insurer_id, ''),
    dashboard_decision_bucket(extract(epoch FROM s.decided_at - s.sent_at)::double precision), weight
  FROM (VALUES ('hour'), ('day'), ('month')) g (grain)
  WHERE s.kind = 'claim' AND s.sent_at IS NOT NULL AND s.decided_at IS NOT NULL
$$;
--> statement-breakpoint
-- Statement-level like the adjudication rollup (one grouped upsert per statement), rows locked in
-- key order (see 0006_dashboard_lock_order) so concurrent writers wait instead of deadlocking.
CREATE OR REPLACE FUNCTION dashboard_decision_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO decision_time_histogram AS d (grain, period, insurer_id, bucket, count)
  SELECT c.grain, c.period, c.insurer_id, c.bucket, sum(c.sign)
  FROM (SELECT x.* FROM new_rows n, dashboard_decision_contribution(n, 1) x) c
  GROUP BY c.grain, c.period, c.insurer_id, c.bucket
  HAVING sum(c.sign) <> 0
  ORDER BY 1, 2, 3, 4
  ON CONFLICT (grain, period, insurer_id, bucket) DO UPDATE SET count = d.count + excluded.count;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dashboard_decision_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO decision_time_histogram AS d (grain, period, insurer_id, bucket, count)
  SELECT c.grain, c.period, c.insurer_id, c.bucket, sum(c.sign)
  FROM (SELECT x.* FROM old_rows o, dashboard_decision_contribution(o, -1) x
    UNION ALL SELECT x.* FROM new_rows n, dashboard_decision_contribution(n, 1) x) c
  GROUP BY c.grain, c.period, c.insurer_id, c.bucket
  HAVING sum(c.sign) <> 0
  ORDER BY 1, 2, 3, 4
  ON CONFLICT (grain, period, insurer_id, bucket) DO UPDATE SET count = d.count + excluded.count;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dashboard_decision_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO decision_time_histogram AS d (grain, period, insurer_id, bucket, count)
  SELECT c.grain, c.period, c.insurer_id, c.bucket, sum(c.sign)
  FROM (SELECT x.* FROM old_rows o, dashboard_decision_contribution(o, -1) x) c
  GROUP BY c.grain, c.period, c.insurer_id, c.bucket
  HAVING sum(c.sign) <> 0
  ORDER BY 1, 2, 3, 4
  ON CONFLICT (grain, period, insurer_id, bucket) DO UPDATE SET count = d.count + excluded.count;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER submissions_decision_insert AFTER INSERT ON submissions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_decision_insert();
--> statement-breakpoint
CREATE TRIGGER submissions_decision_update AFTER UPDATE ON submissions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_decision_update();
--> statement-breakpoint
CREATE TRIGGER submissions_decision_delete AFTER DELETE ON submissions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_decision_delete();
--> statement-breakpoint
-- Backfill: every decided claim already stored (the triggers cover every change from here on).
INSERT INTO decision_time_histogram AS d (grain, period, insurer_id, bucket, count)
  SELECT c.grain, c.period, c.insurer_id, c.bucket, sum(c.sign)
  FROM (SELECT x.* FROM submissions s, dashboard_decision_contribution(s, 1) x
    WHERE s.kind = 'claim' AND s.sent_at IS NOT NULL AND s.decided_at IS NOT NULL) c
  GROUP BY c.grain, c.period, c.insurer_id, c.bucket
  HAVING sum(c.sign) <> 0
  ON CONFLICT (grain, period, insurer_id, bucket) DO UPDATE SET count = d.count + excluded.count;
