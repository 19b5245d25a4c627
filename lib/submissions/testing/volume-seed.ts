import type { Database } from "@/lib/db";
import { CODE_SYSTEMS, CPT_CODES, NATIONAL_EXCHANGE, ICD10AM_CODES, nationalIdCheckDigit } from "@/lib/fhir";

/*
 * Realistic volume for benchmarks, dashboards and paging tests: claims (and some prior
 * authorizations) over the last 12 months (or `days`), created in clinic hours, from a patient population
 * (valid national IDs with check digits; citizens and residents; each with one insurer), with
 * 1–3 CPT items at list prices, statuses spread by age (recent claims still in flight, older
 * ones adjudicated with a ClaimResponse, decided_at and payment), and each row's timeline in
 * submission_events. Everything is generated inside the database (INSERT … SELECT …
 * generate_series), one batch per statement.
 *
 * Seeded rows never have next_attempt_at, so a running outbox worker leaves them alone.
 */

export interface VolumeSeedOptions {
  claims: number;
  /** Prior authorizations per claim (default 0.08; they are not part of `claims`). */
  authorizationRatio?: number;
  /** Rows per INSERT (default 50 000). */
  batchSize?: number;
  /** Patients per claim (default 1/20: each patient has ~20 claims a year). */
  patientsPerClaim?: number;
  providerOrgId?: string;
  /** Days of history the rows spread over, ending now (default 365). */
  days?: number;
  now?: Date;
  onProgress?: (done: number, total: number) => void;
  /** Ties for paging tests: about a third of the rows get the same created_at as others in their hour. */
  ties?: boolean;
}

const INSURERS = ["payer-rimal", "payer-wadi", "payer-nakheel"];
const IDENTIFIER_SYSTEM_BASE = "https://clinic.example/fhir/claim-id";

/** List price in halalas of a CPT code: deterministic, 50–950 SAR in steps of 5 SAR. */
function listPriceMinor(code: string, index: number): number {
  let h = index * 7919;
  for (const ch of code) h = (h * 31 + ch.charCodeAt(0)) % 1_000_003;
  return 5_000 + (h % 181) * 500;
}

function nationalId(n: number): string {
  // Citizens (1…) for 70 %, residents (2…) for 30 %; spread over the 8-digit space.
  const first = n % 10 < 7 ? "1" : "2";
  const body = `${first}${String((n * 48_271 + 1_000_003) % 100_000_000).padStart(8, "0")}`;
  return `${body}${nationalIdCheckDigit(body)}`;
}

const PATIENT_TABLE = "cx_seed_patients";

/**
 * Reasons of denied and cut lines (docs/decisions/076): the exchange's codes of every family, the
 * sandbox's and HL7's own, and one payer code of no family.
 */
const SEED_REASONS = ["AD-1-4", "AD-2-6", "BE-1-2", "BE-1-1", "SE-1-1", "MN-1-1", "CV-4-5", "ar001", "ar002", "price-list", "preauth-required", "coverage-inactive", "PAYER-77"];
const reasonPick = (seed: string) => `(array[${SEED_REASONS.map((r) => `'${r}'`).join(", ")}])[1 + abs(hashtext(${seed})) % ${SEED_REASONS.length}]`;

/**
 * The reader's view (response_view) of a partly approved or denied claim, as far as the denial
 * lines read it: every item denied, or the first one cut to 30–80 % with a reason.
 */
const DENIAL_VIEW_SQL = `case when a.kind = 'claim' and a.status in ('partial', 'denied') then jsonb_build_object(
      'decision', case a.status when 'denied' then 'denied' else 'partly-approved' end,
      'items', (select jsonb_agg(jsonb_build_object('kind', 'item', 'sequence', (i ->> 'sequence')::int,
          'decision', case when a.status = 'denied' then 'denied' when i ->> 'sequence' = '1' then 'partly-approved' else 'approved' end,
          'amounts', jsonb_build_object('submitted', jsonb_build_object('value', s.sub / 100.0, 'minor', s.sub, 'currency', 'SAR'),
            'benefit', jsonb_build_object('value', b.ben / 100.0, 'minor', b.ben, 'currency', 'SAR')),
          'reasons', case when a.status = 'denied' or i ->> 'sequence' = '1'
            then jsonb_build_array(jsonb_build_object('code', ${reasonPick("a.id::text || (i ->> 'sequence')")})) else '[]'::jsonb end))
        from jsonb_array_elements(a.items) i
        cross join lateral (select round((i -> 'quantity' ->> 'value')::numeric * (i -> 'unitPrice' ->> 'value')::numeric * 100)::bigint as sub) s
        cross join lateral (select case when a.status = 'denied' then 0 when i ->> 'sequence' = '1' then (s.sub * (0.3 + a.r_elig * 0.5))::bigint
          else s.sub end as ben) b)) end`;

/** The batch statement. $1 first, $2 last row, $3 authorizations, $4 now, $5 patients, $6 codes, $7 prices, $8 diagnoses, $9 identifier system, $10 provider, $11 rows in all, $12 days of history. */
const BATCH_SQL = `
with base as materialized (
  select g,
    gen_random_uuid() as id,
    -- Prior authorizations evenly among the claims: exactly $3 of the $11 rows.
    case when floor(g::numeric * $3::int / $11::int) <> floor((g - 1)::numeric * $3::int / $11::int) then 'preauthorization' else 'claim' end as kind,
    1 + floor(random() * $5::int)::int as patient_n,
    -- Rows are written in time order, as a live table is (physical order follows created_at);
    -- volume grows over the year, and each day's claims fall in clinic hours (04:00–14:00 UTC).
    $12::int * (1 - power(1 - g::float8 / $11::int, 0.87)) as day_pos,
    random() as r_status, random() as r_share, random() as r_elig, random() as r_channel,
    random() * interval '20 minutes' as send_delay, random() * random() * interval '20 days' as decide_delay,
    1 + floor(random() * array_length($8::text[], 1))::int as dx,
    1 + floor(power(random(), 1.6) * 3)::int as n_items
  from generate_series($1::int, $2::int) g
), timed as (
  select b.*, least($4::timestamptz - interval '1 minute',
      date_trunc('day', $4::timestamptz) - $12::int * interval '1 day' + floor(day_pos) * interval '1 day'
        + interval '4 hours' + (day_pos - floor(day_pos)) * interval '10 hours' + random() * interval '30 seconds') as created_at
  from base b
), shaped as (
  select b.*, p.national_id, p.insurer_id,
    case when $4::timestamptz - b.created_at < interval '2 days' then
      case when r_status < .10 then 'draft' when r_status < .20 then 'queued' when r_status < .50 then 'sent'
           when r_status < .70 then 'pended' when r_status < .90 then 'complete' when r_status < .95 then 'partial'
           when r_status < .98 then 'denied' else 'rejected' end
    else
      case when r_status < .62 then 'complete' when r_status < .76 then 'partial' when r_status < .85 then 'denied'
           when r_status < .89 then 'rejected' when r_status < .905 then 'failed' when r_status < .925 then 'cancelled'
           when r_status < .955 then 'draft' when r_status < .985 then 'pended' else 'sent' end
    end as status,
    it.items, it.total_minor
  from timed b
  join ${PATIENT_TABLE} p on p.n = b.patient_n
  cross join lateral (
    select jsonb_agg(jsonb_build_object(
        'sequence', k,
        'productOrService', jsonb_build_object('coding', jsonb_build_array(jsonb_build_object('system', '${CODE_SYSTEMS.cpt}', 'code', ($6::text[])[pick.c]))),
        'servicedDate', to_char(b.created_at at time zone 'UTC', 'YYYY-MM-DD'),
        'quantity', jsonb_build_object('value', pick.q),
        'unitPrice', jsonb_build_object('value', round(($7::int[])[pick.c] / 100.0, 2), 'currency', 'SAR')) order by k) as items,
      sum(pick.q * ($7::int[])[pick.c])::int as total_minor
    from generate_series(1, b.n_items) k
    cross join lateral (select 1 + floor(random() * array_length($6::text[], 1))::int + 0 * k as c,
                               case when random() < .85 then 1 else 2 + floor(random() * 3)::int end as q) pick
  ) it
), money as (
  select s.*,
    case when status in ('sent','pended','complete','partial','denied','rejected','cancelled') then sent end as sent_at,
    -- Never in the future: a recent claim is decided within the time it has had.
    case when status in ('complete','partial','denied','cancelled')
      then sent + least(interval '3 seconds' + decide_delay, ($4::timestamptz - sent) * 0.9) end as decided_at,
    case when status in ('complete','cancelled') then total_minor
         when status = 'partial' then (total_minor * (0.55 + r_elig * 0.4))::int else 0 end as eligible_minor
  from (select *, least(created_at + send_delay, created_at + ($4::timestamptz - created_at) / 2) as sent from shaped) s
), adjudicated as (
  select m.*, (eligible_minor * (0.05 + floor(r_share * 4) * 0.05))::int as copay_minor from money m
), ins as (
  insert into submissions (id, kind, status, identifier_system, identifier_value, patient_id, insurer_id, claim, platform_id,
    response, response_view, errors, total_minor, currency, attempts, channel, created_by, created_at, updated_at, sent_at, decided_at)
  select a.id, a.kind, a.status,
    case when a.status <> 'draft' then $9::text end,
    case when a.status <> 'draft' then a.id::text end,
    a.national_id, a.insurer_id,
    jsonb_build_object(
      'resourceType', 'Claim',
      'identifier', jsonb_build_array(jsonb_build_object('system', $9::text, 'value', a.id::text)),
      'status', 'active',
      'type', jsonb_build_object('coding', jsonb_build_array(jsonb_build_object('system', '${CODE_SYSTEMS.claimType}', 'code', 'institutional'))),
      'use', a.kind,
      'patient', jsonb_build_object('reference', 'Patient/' || a.national_id),
      'created', to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
      'provider', jsonb_build_object('reference', 'Organization/' || $10::text),
      'insurer', jsonb_build_object('reference', 'Organization/' || a.insurer_id),
      'priority', jsonb_build_object('coding', jsonb_build_array(jsonb_build_object('system', '${CODE_SYSTEMS.processPriority}', 'code', 'normal'))),
      'insurance', jsonb_build_array(jsonb_build_object('sequence', 1, 'focal', true, 'coverage', jsonb_build_object('reference', 'Coverage/cov-' || a.national_id))),
      'diagnosis', jsonb_build_array(jsonb_build_object('sequence', 1, 'diagnosisCodeableConcept',
        jsonb_build_object('coding', jsonb_build_array(jsonb_build_object('system', '${CODE_SYSTEMS.icd10am}', 'code', ($8::text[])[a.dx]))))),
      'item', a.items,
      -- Three claims in five name their practitioner (the denial analytics break down by it).
      'careTeam', case when abs(hashtext(a.id::text)) % 5 < 3 then jsonb_build_array(jsonb_build_object('sequence', 1,
        'provider', jsonb_build_object('identifier', jsonb_build_object('value', 'PR-' || lpad((abs(hashtext(a.id::text || 'p')) % 40)::text, 3, '0'))))) else '[]'::jsonb end),
    case when a.sent_at is not null and a.status <> 'rejected' then 'clm-' || replace(a.id::text, '-', '') end,
    case when a.decided_at is not null then jsonb_build_object(
      'resourceType', 'ClaimResponse', 'status', 'active', 'use', a.kind,
      'type', jsonb_build_object('coding', jsonb_build_array(jsonb_build_object('system', '${CODE_SYSTEMS.claimType}', 'code', 'professional'))),
      'patient', jsonb_build_object('reference', 'Patient/' || a.national_id),
      'insurer', jsonb_build_object('reference', 'Organization/' || a.insurer_id),
      'created', to_char(a.decided_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
      'outcome', case when a.status = 'partial' then 'partial' else 'complete' end,
      'disposition', case a.status when 'denied' then 'Not covered under the plan' when 'partial' then 'Partly covered' else 'Approved' end,
      'total', jsonb_build_array(
        jsonb_build_object('category', jsonb_build_object('coding', jsonb_build_array(jsonb_build_object('system', '${CODE_SYSTEMS.adjudication}', 'code', 'submitted'))), 'amount', jsonb_build_object('value', round(a.total_minor / 100.0, 2), 'currency', 'SAR')),
        jsonb_build_object('category', jsonb_build_object('coding', jsonb_build_array(jsonb_build_object('system', '${CODE_SYSTEMS.adjudication}', 'code', 'eligible'))), 'amount', jsonb_build_object('value', round(a.eligible_minor / 100.0, 2), 'currency', 'SAR')),
        jsonb_build_object('category', jsonb_build_object('coding', jsonb_build_array(jsonb_build_object('system', '${CODE_SYSTEMS.adjudication}', 'code', 'copay'))), 'amount', jsonb_build_object('value', round(a.copay_minor / 100.0, 2), 'currency', 'SAR')),
        jsonb_build_object('category', jsonb_build_object('coding', jsonb_build_array(jsonb_build_object('system', '${NATIONAL_EXCHANGE.adjudicationSystem}', 'code', 'patientShare'))), 'amount', jsonb_build_object('value', round(a.copay_minor / 100.0, 2), 'currency', 'SAR')),
        jsonb_build_object('category', jsonb_build_object('coding', jsonb_build_array(jsonb_build_object('system', '${CODE_SYSTEMS.adjudication}', 'code', 'benefit'))), 'amount', jsonb_build_object('value', round((a.eligible_minor - a.copay_minor) / 100.0, 2), 'currency', 'SAR'))),
      'payment', case when a.kind = 'claim' and a.status <> 'denied' then jsonb_build_object(
        'type', jsonb_build_object('coding', jsonb_build_array(jsonb_build_object('system', '${CODE_SYSTEMS.paymentType}', 'code', 'complete'))),
        'date', to_char((a.decided_at + interval '7 days') at time zone 'UTC', 'YYYY-MM-DD'),
        'amount', jsonb_build_object('value', round((a.eligible_minor - a.copay_minor) / 100.0, 2), 'currency', 'SAR')) end)
    end,
    ${DENIAL_VIEW_SQL},
    case a.status when 'rejected' then '[{"code":"ERR-003","status":422,"diagnostics":"Invalid code","resolution":"Use a valid code"}]'::jsonb
                  when 'failed' then '[{"status":503,"diagnostics":"The platform did not answer"}]'::jsonb end,
    a.total_minor, 'SAR',
    case when a.status = 'draft' then 0 when a.status = 'failed' then 8 else 1 end,
    case when a.r_channel < .7 then 'ui' when a.r_channel < .95 then 'exchange-api' else 'gateway' end,
    'seed:volume', a.created_at, coalesce(a.decided_at, a.sent_at, a.created_at), a.sent_at, a.decided_at
  from adjudicated a
  returning id, status, created_at, sent_at, decided_at
)
insert into submission_events (submission_id, at, from_status, to_status, source)
select id, created_at, null, 'draft', 'user' from ins
union all select id, created_at + interval '2 seconds', 'draft', 'queued', 'user' from ins where status <> 'draft'
union all select id, sent_at, 'queued', 'sent', 'system' from ins where sent_at is not null and status <> 'rejected'
union all select id, sent_at, 'queued', 'rejected', 'platform' from ins where status = 'rejected'
union all select id, created_at + interval '1 hour', 'queued', 'failed', 'system' from ins where status = 'failed'
union all select id, sent_at + interval '2 seconds', 'sent', 'pended', 'webhook' from ins where status in ('pended','complete','partial','denied','cancelled')
union all select id, decided_at, 'pended', case when status = 'cancelled' then 'complete' else status end, 'webhook' from ins where decided_at is not null
union all select id, decided_at + ($4::timestamptz - decided_at) / 2, 'complete', 'cancelled', 'user' from ins where status = 'cancelled'
`;

/** Inserts the rows; returns how many submissions were written. */
export async function seedVolume(database: Database, options: VolumeSeedOptions): Promise<{ claims: number; authorizations: number; patients: number }> {
  const claims = Math.max(0, Math.floor(options.claims));
  const authorizations = Math.round(claims * (options.authorizationRatio ?? 0.08));
  const batch = Math.max(1, options.batchSize ?? 50_000);
  const patients = Math.max(1, Math.ceil((claims + authorizations) * (options.patientsPerClaim ?? 1 / 20)));
  const now = (options.now ?? new Date()).toISOString();
  const days = Math.max(1, Math.floor(options.days ?? 365));
  const org = options.providerOrgId ?? "clinic-001";
  const system = `${IDENTIFIER_SYSTEM_BASE}/${org}`;
  const codes = CPT_CODES.map((c) => c.code);
  const prices = CPT_CODES.map((c, i) => listPriceMinor(c.code, i));
  const diagnoses = ICD10AM_CODES.map((d) => d.code);

  await database.query(`drop table if exists ${PATIENT_TABLE}`);
  await database.query(`create unlogged table ${PATIENT_TABLE} (n int primary key, national_id text not null, insurer_id text not null)`);
  try {
    for (let from = 1; from <= patients; from += 10_000) {
      const ns = Array.from({ length: Math.min(10_000, patients - from + 1) }, (_, i) => from + i);
      await database.query(`insert into ${PATIENT_TABLE} select * from unnest($1::int[], $2::text[], $3::text[])`, [
        ns,
        ns.map(nationalId),
        ns.map((n) => INSURERS[(n * 13) % INSURERS.length]!),
      ]);
    }
    await database.query(`analyze ${PATIENT_TABLE}`);
    const total = claims + authorizations;
    for (let first = 1; first <= total; first += batch) {
      const last = Math.min(total, first + batch - 1);
      await database.query(BATCH_SQL, [first, last, authorizations, now, patients, codes, prices, diagnoses, system, org, total, days]);
      options.onProgress?.(last, total);
    }
    if (options.ties) await database.query(`update submissions set created_at = date_trunc('hour', created_at) where (get_byte(uuid_send(id), 0) % 3) = 0`);
  } finally {
    await database.query(`drop table if exists ${PATIENT_TABLE}`);
  }
  return { claims, authorizations, patients };
}
