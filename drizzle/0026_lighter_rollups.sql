-- docs/decisions/100: the managers' views at 1,000,000 claims within 100 ms for any range up to 24 months.
--
-- 1. The denial breakdowns by insurer, service and practitioner never read a family (only the
--    family and reason rows carry one to the screen), yet their rollup rows were split by it: five to
--    six times the rows a two-year range has to sum. Their day and month rows now keep family ''.
CREATE OR REPLACE FUNCTION denial_contribution(l denial_lines, weight integer)
RETURNS TABLE (grain text, period timestamptz, insurer_id text, dimension text, key text, family text, outcome text,
  sign integer, submitted bigint, at_stake bigint)
LANGUAGE sql STABLE AS $$
  SELECT d.grain, date_trunc(d.grain, l.created_at, 'UTC'), d.insurer_id, d.dimension, d.key, d.family, l.outcome,
    weight, weight * l.submitted_minor, weight * l.at_stake_minor
  FROM (VALUES
    ('day', 'family', l.family, l.family, l.insurer_id), ('day', 'reason', l.reason_code, l.family, l.insurer_id), ('day', 'insurer', l.insurer_id, '', l.insurer_id),
    ('day', 'service', l.service_code, '', l.insurer_id), ('day', 'practitioner', l.practitioner, '', l.insurer_id),
    ('month', 'family', l.family, l.family, l.insurer_id), ('month', 'reason', l.reason_code, l.family, l.insurer_id), ('month', 'insurer', l.insurer_id, '', l.insurer_id),
    ('month', 'service', l.service_code, '', l.insurer_id), ('month', 'practitioner', l.practitioner, '', l.insurer_id),
    ('hour', 'trend', '', '', l.insurer_id), ('hour', 'trend-all', '', '', '')) d (grain, dimension, key, family, insurer_id)
$$;
--> statement-breakpoint
CREATE TEMP TABLE denial_rollup_refold AS
  SELECT grain, period, insurer_id, dimension, key, outcome, sum(lines) AS lines, sum(submitted_minor) AS submitted_minor, sum(at_stake_minor) AS at_stake_minor
  FROM denial_rollup
  WHERE grain IN ('day', 'month') AND dimension IN ('insurer', 'service', 'practitioner')
  GROUP BY grain, period, insurer_id, dimension, key, outcome;
--> statement-breakpoint
DELETE FROM denial_rollup WHERE grain IN ('day', 'month') AND dimension IN ('insurer', 'service', 'practitioner');
--> statement-breakpoint
INSERT INTO denial_rollup (grain, period, insurer_id, dimension, key, family, outcome, lines, submitted_minor, at_stake_minor)
  SELECT grain, period, insurer_id, dimension, key, '', outcome, lines, submitted_minor, at_stake_minor
  FROM denial_rollup_refold
  WHERE lines <> 0 OR submitted_minor <> 0 OR at_stake_minor <> 0;
--> statement-breakpoint
DROP TABLE denial_rollup_refold;
--> statement-breakpoint
-- 2. The dashboard's trend without an insurer filter summed one hour row per insurer: it now reads
--    one row per UTC hour for all insurers together (grain 'hour-all', insurer ''), as the denial
--    trend's 'trend-all' (decision 082). Same contributions, kept by the same trigger functions.
CREATE OR REPLACE FUNCTION dashboard_period_contribution(s submissions, weight integer)
RETURNS TABLE (grain text, period timestamptz, insurer_id text, kind text, category text, status text, reason text, sign integer,
  submitted bigint, eligible bigint, benefit bigint, copay bigint)
LANGUAGE sql STABLE AS $$
  SELECT g.grain, date_trunc(g.unit, c.hour, 'UTC'), CASE WHEN g.grain = 'hour-all' THEN '' ELSE c.insurer_id END, c.kind,
    CASE WHEN g.unit = 'hour' THEN '' ELSE c.category END,
    CASE WHEN g.unit = 'hour' THEN 'decided' ELSE c.status END,
    CASE WHEN g.unit = 'hour' THEN '' ELSE c.reason END,
    c.sign, c.submitted, c.eligible, c.benefit, c.copay
  FROM dashboard_contribution(s, weight) c, (VALUES ('hour', 'hour'), ('hour-all', 'hour'), ('day', 'day'), ('month', 'month')) g (grain, unit)
  WHERE g.unit <> 'hour' OR (c.kind = 'claim' AND c.status IN ('complete', 'partial', 'denied'))
$$;
--> statement-breakpoint
INSERT INTO adjudication_rollup (grain, period, insurer_id, kind, category, status, reason, count, submitted_minor, eligible_minor, benefit_minor, copay_minor)
  SELECT 'hour-all', period, '', kind, category, status, reason, sum(count), sum(submitted_minor), sum(eligible_minor), sum(benefit_minor), sum(copay_minor)
  FROM adjudication_rollup
  WHERE grain = 'hour'
  GROUP BY period, kind, category, status, reason
  HAVING sum(count) <> 0 OR sum(submitted_minor) <> 0 OR sum(eligible_minor) <> 0 OR sum(benefit_minor) <> 0 OR sum(copay_minor) <> 0;
