-- Issue 40 (docs/decisions/098): a remittance's detail lines read in full — their kind (payment,
-- adjustment, advance, reversal), the exchange's components (component-payment, -early-fee,
-- -nphies-fee), what settles the claim (the payment component, else the amount plus the fees) and
-- the detail it reverses. Amounts signed halalas: a reversal is negative.
ALTER TABLE "remittance_lines" ADD COLUMN "kind" text DEFAULT 'payment' NOT NULL;
--> statement-breakpoint
ALTER TABLE "remittance_lines" ADD COLUMN "settled_minor" bigint;
--> statement-breakpoint
ALTER TABLE "remittance_lines" ADD COLUMN "payment_minor" bigint;
--> statement-breakpoint
ALTER TABLE "remittance_lines" ADD COLUMN "early_fee_minor" bigint;
--> statement-breakpoint
ALTER TABLE "remittance_lines" ADD COLUMN "exchange_fee_minor" bigint;
--> statement-breakpoint
ALTER TABLE "remittance_lines" ADD COLUMN "component_gap_minor" bigint;
--> statement-breakpoint
ALTER TABLE "remittance_lines" ADD COLUMN "identifier_value" text;
--> statement-breakpoint
ALTER TABLE "remittance_lines" ADD COLUMN "predecessor_value" text;
--> statement-breakpoint
-- Lines stored before: what they paid settles the claim; their type names their kind.
UPDATE "remittance_lines" SET "settled_minor" = "amount_minor",
  "kind" = CASE WHEN "type" IN ('payment', 'adjustment', 'advance', 'reversal') THEN "type" ELSE 'payment' END;
--> statement-breakpoint
ALTER TABLE "remittance_lines" ALTER COLUMN "settled_minor" SET NOT NULL;
--> statement-breakpoint
-- The dashboard's patient share is the payer's stated patientShare (the stored reader's view, else
-- the raw answer's total in that category, any spelling), as the screens and machine APIs show it
-- (docs/decisions/098) — no longer the copay total. The column keeps its name (copay_minor).
CREATE OR REPLACE FUNCTION dashboard_patient_share_minor(response_view jsonb, response jsonb) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(
    CASE WHEN jsonb_typeof(response_view -> 'total' -> 'patientShare' -> 'minor') = 'number'
      THEN (response_view -> 'total' -> 'patientShare' ->> 'minor')::bigint END,
    (SELECT round((t -> 'amount' ->> 'value')::numeric * 100)::bigint
      FROM jsonb_array_elements(CASE WHEN jsonb_typeof(response -> 'total') = 'array' THEN response -> 'total' ELSE '[]'::jsonb END) t
      WHERE lower(t -> 'category' -> 'coding' -> 0 ->> 'code') = 'patientshare'
      LIMIT 1))
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
    coalesce(dashboard_patient_share_minor(s.response_view, s.response), 0),
    CASE WHEN s.sent_at IS NOT NULL AND s.decided_at IS NOT NULL THEN 1 ELSE 0 END,
    CASE WHEN s.sent_at IS NOT NULL AND s.decided_at IS NOT NULL
      THEN greatest(0, floor(extract(epoch FROM s.decided_at - s.sent_at)))::bigint ELSE 0 END
$$;
--> statement-breakpoint
-- Rebuilt with the new contribution, so the triggers' later subtractions match what was added.
DELETE FROM adjudication_hourly;
--> statement-breakpoint
INSERT INTO adjudication_hourly (hour, insurer_id, kind, category, status, reason, count,
    submitted_minor, eligible_minor, benefit_minor, copay_minor, decided_count, decide_seconds)
  SELECT c.hour, c.insurer_id, c.kind, c.category, c.status, c.reason, sum(c.sign), sum(c.sign * c.submitted),
    sum(c.sign * c.eligible), sum(c.sign * c.benefit), sum(c.sign * c.copay), sum(c.sign * c.decided), sum(c.sign * c.seconds)
  FROM (SELECT x.* FROM submissions n, dashboard_contribution(n, 1) x) c
  GROUP BY c.hour, c.insurer_id, c.kind, c.category, c.status, c.reason
  HAVING sum(c.sign) <> 0 OR sum(c.sign * c.submitted) <> 0 OR sum(c.sign * c.eligible) <> 0 OR sum(c.sign * c.benefit) <> 0
    OR sum(c.sign * c.copay) <> 0 OR sum(c.sign * c.decided) <> 0 OR sum(c.sign * c.seconds) <> 0;
--> statement-breakpoint
DELETE FROM adjudication_rollup;
--> statement-breakpoint
INSERT INTO adjudication_rollup (grain, period, insurer_id, kind, category, status, reason, count, submitted_minor, eligible_minor, benefit_minor, copay_minor)
  SELECT g.grain, date_trunc(g.grain, h.hour, 'UTC'), h.insurer_id, h.kind,
    CASE WHEN g.grain = 'hour' THEN '' ELSE h.category END, CASE WHEN g.grain = 'hour' THEN 'decided' ELSE h.status END,
    CASE WHEN g.grain = 'hour' THEN '' ELSE h.reason END,
    sum(h.count), sum(h.submitted_minor), sum(h.eligible_minor), sum(h.benefit_minor), sum(h.copay_minor)
  FROM adjudication_hourly h, (VALUES ('hour'), ('day'), ('month')) g (grain)
  WHERE g.grain <> 'hour' OR (h.kind = 'claim' AND h.status IN ('complete', 'partial', 'denied'))
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  HAVING sum(h.count) <> 0 OR sum(h.submitted_minor) <> 0 OR sum(h.eligible_minor) <> 0 OR sum(h.benefit_minor) <> 0 OR sum(h.copay_minor) <> 0;
