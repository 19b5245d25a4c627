-- docs/decisions/107: the managers' views within 100 ms at 1,000,000 claims. Three parts: the trends
-- read one row per clinic day instead of one per UTC hour (1); the views that never show the
-- benefit category read day and month rows without it (2, below); every view is planned for one
-- process without a transaction around it (3, dashboard_serial); the median for all insurers reads
-- an all-insurer histogram (4, at the end).
--
-- 1. The dashboard's trend and the denial trend group hour rows into the clinic's days (its time
-- zone, CLINIC_TIME_ZONE): 17,500 hour rows for a two-year range (35,000 for the denials, split by
-- outcome), each converted to the clinic's time. The rollups now also keep 'clinic-day' rows (one
-- per clinic day and insurer) and 'clinic-day-all' rows (all insurers), in the same transaction as
-- the change, by the same trigger functions. The clinic's time zone those days follow is stored in
-- `dashboard_clock` (one row); the portal sets it at start (dashboard_clock_set, which rebuilds the
-- clinic-day rows from the hour rows when the zone changed), and a read whose zone is not the
-- stored one groups the hour rows as before.
CREATE TABLE "dashboard_clock" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"time_zone" text NOT NULL,
	CONSTRAINT "dashboard_clock_one_row" CHECK ("dashboard_clock"."id")
);
--> statement-breakpoint
-- The clinic day of an instant, as the trend counts it: its UTC hour (the hour rows' period), then
-- the day of that hour in the stored zone (UTC until a zone is set).
CREATE OR REPLACE FUNCTION dashboard_clinic_day(t timestamptz) RETURNS timestamptz
LANGUAGE sql STABLE AS $$
  SELECT date_trunc('day', date_trunc('hour', t, 'UTC'), coalesce((SELECT time_zone FROM dashboard_clock), 'UTC'))
$$;
--> statement-breakpoint
-- 2. Also 'day-no-category' and 'month-no-category' rows: the day and month rows without the
-- benefit category, which only the totals by category read (9 categories: 9 times the rows the
-- totals by insurer, the authorization rates, the rejection reasons and the headline figures sum).
CREATE OR REPLACE FUNCTION dashboard_period_contribution(s submissions, weight integer)
RETURNS TABLE (grain text, period timestamptz, insurer_id text, kind text, category text, status text, reason text, sign integer,
  submitted bigint, eligible bigint, benefit bigint, copay bigint)
LANGUAGE sql STABLE AS $$
  SELECT g.grain,
    CASE WHEN g.unit = 'clinic-day' THEN dashboard_clinic_day(c.hour) ELSE date_trunc(g.unit, c.hour, 'UTC') END,
    CASE WHEN g.grain IN ('hour-all', 'clinic-day-all') THEN '' ELSE c.insurer_id END, c.kind,
    CASE WHEN g.unit IN ('hour', 'clinic-day') OR g.grain LIKE '%-no-category' THEN '' ELSE c.category END,
    CASE WHEN g.unit IN ('hour', 'clinic-day') THEN 'decided' ELSE c.status END,
    CASE WHEN g.unit IN ('hour', 'clinic-day') THEN '' ELSE c.reason END,
    c.sign, c.submitted, c.eligible, c.benefit, c.copay
  FROM dashboard_contribution(s, weight) c,
    (VALUES ('hour', 'hour'), ('hour-all', 'hour'), ('day', 'day'), ('month', 'month'), ('clinic-day', 'clinic-day'), ('clinic-day-all', 'clinic-day'),
      ('day-no-category', 'day'), ('month-no-category', 'month')) g (grain, unit)
  WHERE g.unit NOT IN ('hour', 'clinic-day') OR (c.kind = 'claim' AND c.status IN ('complete', 'partial', 'denied'))
$$;
--> statement-breakpoint
INSERT INTO adjudication_rollup (grain, period, insurer_id, kind, category, status, reason, count, submitted_minor, eligible_minor, benefit_minor, copay_minor)
  SELECT grain || '-no-category', period, insurer_id, kind, '', status, reason, sum(count), sum(submitted_minor), sum(eligible_minor), sum(benefit_minor), sum(copay_minor)
  FROM adjudication_rollup
  WHERE grain IN ('day', 'month')
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  HAVING sum(count) <> 0 OR sum(submitted_minor) <> 0 OR sum(eligible_minor) <> 0 OR sum(benefit_minor) <> 0 OR sum(copay_minor) <> 0;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION denial_contribution(l denial_lines, weight integer)
RETURNS TABLE (grain text, period timestamptz, insurer_id text, dimension text, key text, family text, outcome text,
  sign integer, submitted bigint, at_stake bigint)
LANGUAGE sql STABLE AS $$
  SELECT d.grain, CASE WHEN d.grain = 'clinic-day' THEN dashboard_clinic_day(l.created_at) ELSE date_trunc(d.grain, l.created_at, 'UTC') END,
    d.insurer_id, d.dimension, d.key, d.family, l.outcome, weight, weight * l.submitted_minor, weight * l.at_stake_minor
  FROM (VALUES
    ('day', 'family', l.family, l.family, l.insurer_id), ('day', 'reason', l.reason_code, l.family, l.insurer_id), ('day', 'insurer', l.insurer_id, '', l.insurer_id),
    ('day', 'service', l.service_code, '', l.insurer_id), ('day', 'practitioner', l.practitioner, '', l.insurer_id),
    ('month', 'family', l.family, l.family, l.insurer_id), ('month', 'reason', l.reason_code, l.family, l.insurer_id), ('month', 'insurer', l.insurer_id, '', l.insurer_id),
    ('month', 'service', l.service_code, '', l.insurer_id), ('month', 'practitioner', l.practitioner, '', l.insurer_id),
    ('hour', 'trend', '', '', l.insurer_id), ('hour', 'trend-all', '', '', ''),
    ('clinic-day', 'trend', '', '', l.insurer_id), ('clinic-day', 'trend-all', '', '', '')) d (grain, dimension, key, family, insurer_id)
$$;
--> statement-breakpoint
-- Sets the clinic's time zone the clinic-day rows follow and, when it changed, rebuilds them from
-- the hour rows (the same sums, grouped by the new zone's days). Writers of submissions wait for
-- it (their triggers then read the new zone); an unknown zone raises before anything changes.
-- Returns whether it rebuilt.
CREATE OR REPLACE FUNCTION dashboard_clock_set(zone text) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM dashboard_clock WHERE time_zone = zone) THEN
    RETURN false;
  END IF;
  PERFORM now() AT TIME ZONE zone;
  LOCK TABLE submissions, denial_lines IN SHARE ROW EXCLUSIVE MODE;
  IF EXISTS (SELECT 1 FROM dashboard_clock WHERE time_zone = zone) THEN
    RETURN false;
  END IF;
  INSERT INTO dashboard_clock (id, time_zone) VALUES (true, zone) ON CONFLICT (id) DO UPDATE SET time_zone = excluded.time_zone;
  DELETE FROM adjudication_rollup WHERE grain IN ('clinic-day', 'clinic-day-all');
  INSERT INTO adjudication_rollup (grain, period, insurer_id, kind, category, status, reason, count, submitted_minor, eligible_minor, benefit_minor, copay_minor)
    SELECT CASE WHEN grain = 'hour' THEN 'clinic-day' ELSE 'clinic-day-all' END, date_trunc('day', period, zone), insurer_id, kind, category, status, reason,
      sum(count), sum(submitted_minor), sum(eligible_minor), sum(benefit_minor), sum(copay_minor)
    FROM adjudication_rollup
    WHERE grain IN ('hour', 'hour-all')
    GROUP BY 1, 2, 3, 4, 5, 6, 7
    HAVING sum(count) <> 0 OR sum(submitted_minor) <> 0 OR sum(eligible_minor) <> 0 OR sum(benefit_minor) <> 0 OR sum(copay_minor) <> 0;
  DELETE FROM denial_rollup WHERE grain = 'clinic-day';
  INSERT INTO denial_rollup (grain, period, insurer_id, dimension, key, family, outcome, lines, submitted_minor, at_stake_minor)
    SELECT 'clinic-day', date_trunc('day', period, zone), insurer_id, dimension, key, family, outcome, sum(lines), sum(submitted_minor), sum(at_stake_minor)
    FROM denial_rollup
    WHERE grain = 'hour' AND dimension IN ('trend', 'trend-all')
    GROUP BY 1, 2, 3, 4, 5, 6, 7
    HAVING sum(lines) <> 0 OR sum(submitted_minor) <> 0 OR sum(at_stake_minor) <> 0;
  RETURN true;
END
$$;
--> statement-breakpoint
-- Backfill: the default clinic zone (lib/env CLINIC_TIME_ZONE's); a portal with another zone rebuilds at start.
SELECT dashboard_clock_set('Asia/Riyadh');
--> statement-breakpoint
-- 3. The managers' views read a few hundred to a few thousand rollup rows: never worth parallel
-- workers, whose launch cost 10–30 ms a query on a busy 2-core machine (decisions 082, 100), yet
-- the planner spreads their `union all` over them (a Parallel Append, which a table's
-- parallel_workers = 0 does not prevent). PostgreSQL plans no parallel query at all when the query
-- calls a function marked PARALLEL UNSAFE: each view's reads call this one (inlined to `true`),
-- one statement instead of a transaction with `set local max_parallel_workers_per_gather = 0`
-- around every view (four round trips instead of one).
CREATE OR REPLACE FUNCTION dashboard_serial() RETURNS boolean
LANGUAGE sql STABLE PARALLEL UNSAFE AS $$
  SELECT true
$$;
--> statement-breakpoint
-- 4. The median for all insurers sums one histogram row per bucket and UTC day or month
--    ('day-all', 'month-all', insurer '') instead of one per insurer and bucket. The hours at a
--    range's edges (24 at most) still read the per-insurer 'hour' rows.
CREATE OR REPLACE FUNCTION dashboard_decision_contribution(s submissions, weight integer)
RETURNS TABLE (grain text, period timestamptz, insurer_id text, bucket smallint, sign integer)
LANGUAGE sql STABLE AS $$
  SELECT g.grain, date_trunc(g.unit, s.created_at, 'UTC'), CASE WHEN g.grain LIKE '%-all' THEN '' ELSE coalesce(s.insurer_id, '') END,
    dashboard_decision_bucket(extract(epoch FROM s.decided_at - s.sent_at)::double precision), weight
  FROM (VALUES ('hour', 'hour'), ('day', 'day'), ('month', 'month'), ('day-all', 'day'), ('month-all', 'month')) g (grain, unit)
  WHERE s.kind = 'claim' AND s.sent_at IS NOT NULL AND s.decided_at IS NOT NULL
$$;
--> statement-breakpoint
INSERT INTO decision_time_histogram (grain, period, insurer_id, bucket, count)
  SELECT grain || '-all', period, '', bucket, sum(count)
  FROM decision_time_histogram
  WHERE grain IN ('day', 'month')
  GROUP BY 1, 2, 3, 4
  HAVING sum(count) <> 0;
