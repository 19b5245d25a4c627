-- Issue #8: keep adjudication_hourly in step with submissions, in the same transaction as every
-- change (statement-level triggers with transition tables: one grouped upsert per statement, so
-- bulk inserts stay fast), backfill it from the rows already there, and index the median query.
INSERT INTO dashboard_procedure_categories (code, category) VALUES
  ('99202', '3'), ('99203', '3'), ('99213', '3'), ('99214', '3'), ('36415', '5'), ('81001', '5'),
  ('85025', '5'), ('80053', '5'), ('83036', '5'), ('71046', '4'), ('73030', '4'), ('96372', '1'),
  ('12001', '1'), ('92004', 'F6'), ('70553', '62'), ('72148', '62'), ('29881', '2'), ('47562', '2'),
  ('59400', '69'), ('15823', '2'), ('58970', '61')
ON CONFLICT (code) DO NOTHING;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dashboard_total_minor(response jsonb, code text) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
  SELECT round((t -> 'amount' ->> 'value')::numeric * 100)::bigint
  FROM jsonb_array_elements(CASE WHEN jsonb_typeof(response -> 'total') = 'array' THEN response -> 'total' ELSE '[]'::jsonb END) t
  WHERE t -> 'category' -> 'coding' -> 0 ->> 'code' = code
  LIMIT 1
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dashboard_category(claim jsonb) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT coalesce(
    claim -> 'item' -> 0 -> 'category' -> 'coding' -> 0 ->> 'code',
    (SELECT c.category FROM dashboard_procedure_categories c
      WHERE c.code = claim -> 'item' -> 0 -> 'productOrService' -> 'coding' -> 0 ->> 'code'),
    '')
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dashboard_reason(status text, errors jsonb, response jsonb) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN status IN ('rejected', 'failed') THEN coalesce(errors -> 0 ->> 'code', 'http-' || (errors -> 0 ->> 'status'), 'unknown')
    WHEN status IN ('denied', 'partial') THEN coalesce(response ->> 'disposition', '')
    ELSE '' END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dashboard_contribution(s submissions, weight integer)
RETURNS TABLE (hour timestamptz, insurer_id text, kind text, category text, status text, reason text, sign integer,
  submitted bigint, eligible bigint, benefit bigint, copay bigint, decided integer, seconds bigint)
LANGUAGE sql STABLE AS $$
  SELECT date_trunc('hour', s.created_at, 'UTC'), coalesce(s.insurer_id, ''), s.kind,
    dashboard_category(s.claim), s.status, dashboard_reason(s.status, s.errors, s.response), weight,
    coalesce(dashboard_total_minor(s.response, 'submitted'), s.total_minor, 0),
    coalesce(dashboard_total_minor(s.response, 'eligible'), 0),
    coalesce(dashboard_total_minor(s.response, 'benefit'), 0),
    coalesce(dashboard_total_minor(s.response, 'copay'), 0),
    CASE WHEN s.sent_at IS NOT NULL AND s.decided_at IS NOT NULL THEN 1 ELSE 0 END,
    CASE WHEN s.sent_at IS NOT NULL AND s.decided_at IS NOT NULL
      THEN greatest(0, floor(extract(epoch FROM s.decided_at - s.sent_at)))::bigint ELSE 0 END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dashboard_rollup_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO adjudication_hourly AS a (hour, insurer_id, kind, category, status, reason, count,
      submitted_minor, eligible_minor, benefit_minor, copay_minor, decided_count, decide_seconds)
  SELECT c.hour, c.insurer_id, c.kind, c.category, c.status, c.reason, sum(c.sign), sum(c.sign * c.submitted),
    sum(c.sign * c.eligible), sum(c.sign * c.benefit), sum(c.sign * c.copay), sum(c.sign * c.decided), sum(c.sign * c.seconds)
  FROM (SELECT x.* FROM new_rows n, dashboard_contribution(n, 1) x) c
  GROUP BY c.hour, c.insurer_id, c.kind, c.category, c.status, c.reason
  HAVING sum(c.sign) <> 0 OR sum(c.sign * c.submitted) <> 0 OR sum(c.sign * c.eligible) <> 0 OR sum(c.sign * c.benefit) <> 0
    OR sum(c.sign * c.copay) <> 0 OR sum(c.sign * c.decided) <> 0 OR sum(c.sign * c.seconds) <> 0
  ON CONFLICT (hour, insurer_id, kind, category, status, reason) DO UPDATE SET
    count = a.count + excluded.count,
    submitted_minor = a.submitted_minor + excluded.submitted_minor,
    eligible_minor = a.eligible_minor + excluded.eligible_minor,
    benefit_minor = a.benefit_minor + excluded.benefit_minor,
    copay_minor = a.copay_minor + excluded.copay_minor,
    decided_count = a.decided_count + excluded.decided_count,
    decide_seconds = a.decide_seconds + excluded.decide_seconds;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dashboard_rollup_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO adjudication_hourly AS a (hour, insurer_id, kind, category, status, reason, count,
      submitted_minor, eligible_minor, benefit_minor, copay_minor, decided_count, decide_seconds)
  SELECT c.hour, c.insurer_id, c.kind, c.category, c.status, c.reason, sum(c.sign), sum(c.sign * c.submitted),
    sum(c.sign * c.eligible), sum(c.sign * c.benefit), sum(c.sign * c.copay), sum(c.sign * c.decided), sum(c.sign * c.seconds)
  FROM (SELECT x.* FROM old_rows o, dashboard_contribution(o, -1) x UNION ALL SELECT x.* FROM new_rows n, dashboard_contribution(n, 1) x) c
  GROUP BY c.hour, c.insurer_id, c.kind, c.category, c.status, c.reason
  HAVING sum(c.sign) <> 0 OR sum(c.sign * c.submitted) <> 0 OR sum(c.sign * c.eligible) <> 0 OR sum(c.sign * c.benefit) <> 0
    OR sum(c.sign * c.copay) <> 0 OR sum(c.sign * c.decided) <> 0 OR sum(c.sign * c.seconds) <> 0
  ON CONFLICT (hour, insurer_id, kind, category, status, reason) DO UPDATE SET
    count = a.count + excluded.count,
    submitted_minor = a.submitted_minor + excluded.submitted_minor,
    eligible_minor = a.eligible_minor + excluded.eligible_minor,
    benefit_minor = a.benefit_minor + excluded.benefit_minor,
    copay_minor = a.copay_minor + excluded.copay_minor,
    decided_count = a.decided_count + excluded.decided_count,
    decide_seconds = a.decide_seconds + excluded.decide_seconds;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dashboard_rollup_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO adjudication_hourly AS a (hour, insurer_id, kind, category, status, reason, count,
      submitted_minor, eligible_minor, benefit_minor, copay_minor, decided_count, decide_seconds)
  SELECT c.hour, c.insurer_id, c.kind, c.category, c.status, c.reason, sum(c.sign), sum(c.sign * c.submitted),
    sum(c.sign * c.eligible), sum(c.sign * c.benefit), sum(c.sign * c.copay), sum(c.sign * c.decided), sum(c.sign * c.seconds)
  FROM (SELECT x.* FROM old_rows o, dashboard_contribution(o, -1) x) c
  GROUP BY c.hour, c.insurer_id, c.kind, c.category, c.status, c.reason
  HAVING sum(c.sign) <> 0 OR sum(c.sign * c.submitted) <> 0 OR sum(c.sign * c.eligible) <> 0 OR sum(c.sign * c.benefit) <> 0
    OR sum(c.sign * c.copay) <> 0 OR sum(c.sign * c.decided) <> 0 OR sum(c.sign * c.seconds) <> 0
  ON CONFLICT (hour, insurer_id, kind, category, status, reason) DO UPDATE SET
    count = a.count + excluded.count,
    submitted_minor = a.submitted_minor + excluded.submitted_minor,
    eligible_minor = a.eligible_minor + excluded.eligible_minor,
    benefit_minor = a.benefit_minor + excluded.benefit_minor,
    copay_minor = a.copay_minor + excluded.copay_minor,
    decided_count = a.decided_count + excluded.decided_count,
    decide_seconds = a.decide_seconds + excluded.decide_seconds;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER submissions_dashboard_insert AFTER INSERT ON submissions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_rollup_insert();
--> statement-breakpoint
CREATE TRIGGER submissions_dashboard_update AFTER UPDATE ON submissions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_rollup_update();
--> statement-breakpoint
CREATE TRIGGER submissions_dashboard_delete AFTER DELETE ON submissions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_rollup_delete();
--> statement-breakpoint
-- Backfill: everything already stored (the triggers cover every change from here on).
INSERT INTO adjudication_hourly AS a (hour, insurer_id, kind, category, status, reason, count,
      submitted_minor, eligible_minor, benefit_minor, copay_minor, decided_count, decide_seconds)
  SELECT c.hour, c.insurer_id, c.kind, c.category, c.status, c.reason, sum(c.sign), sum(c.sign * c.submitted),
    sum(c.sign * c.eligible), sum(c.sign * c.benefit), sum(c.sign * c.copay), sum(c.sign * c.decided), sum(c.sign * c.seconds)
  FROM (SELECT x.* FROM submissions n, dashboard_contribution(n, 1) x) c
  GROUP BY c.hour, c.insurer_id, c.kind, c.category, c.status, c.reason
  HAVING sum(c.sign) <> 0 OR sum(c.sign * c.submitted) <> 0 OR sum(c.sign * c.eligible) <> 0 OR sum(c.sign * c.benefit) <> 0
    OR sum(c.sign * c.copay) <> 0 OR sum(c.sign * c.decided) <> 0 OR sum(c.sign * c.seconds) <> 0
  ON CONFLICT (hour, insurer_id, kind, category, status, reason) DO UPDATE SET
    count = a.count + excluded.count,
    submitted_minor = a.submitted_minor + excluded.submitted_minor,
    eligible_minor = a.eligible_minor + excluded.eligible_minor,
    benefit_minor = a.benefit_minor + excluded.benefit_minor,
    copay_minor = a.copay_minor + excluded.copay_minor,
    decided_count = a.decided_count + excluded.decided_count,
    decide_seconds = a.decide_seconds + excluded.decide_seconds;
--> statement-breakpoint
-- Median time from sent to adjudicated over a date range: an index-only scan.
CREATE INDEX IF NOT EXISTS submissions_dashboard_decided_idx ON submissions (created_at)
  INCLUDE (kind, insurer_id, sent_at, decided_at) WHERE sent_at IS NOT NULL AND decided_at IS NOT NULL;
