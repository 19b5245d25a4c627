-- Rollup rows are locked in one fixed order (the rollup key), so two transactions that change
-- submissions at the same time wait for each other instead of deadlocking. Without it, two outbox
-- workers deciding claims of the same hour and insurer could lock the "queued" and "sent" rows in
-- opposite orders; PostgreSQL then aborted one transaction after its claim had been accepted, and
-- the worker sent the claim again (reconciled through ERR-005, but a send too many).
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
  ORDER BY 1, 2, 3, 4, 5, 6
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
  ORDER BY 1, 2, 3, 4, 5, 6
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
  ORDER BY 1, 2, 3, 4, 5, 6
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
