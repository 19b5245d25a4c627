/**
 * The national exchange's rules measured on the portal's own messages (docs/decisions/074), with
 * the rule module's checker; per rule, how many messages pass it. Two sets:
 *  - "assembled": every event and care setting from complete facts (lib/fhir/nphies/assemble/demo.ts,
 *    the files of docs/messages/);
 *  - "from today's forms": the Claim of each care setting and use as the portal's forms build it
 *    now (decision 083: care team, chief complaint or days supply, tooth, prescription, stay), and
 *    the eligibility request as the eligibility page builds it, assembled with the parties the
 *    database holds (patient with its document type, coverage, insurer, the care team's
 *    practitioners, the stay's encounter; the provider with PROVIDER_TYPE configured) — what the
 *    messaging adapter sends. The end-to-end version of the claim half is
 *    lib/platform/care-settings.test.ts.
 *   npx tsx scripts/nphies-rule-table.ts
 */
import { buildEligibilityRequest, nphies, type BuiltMessage } from "@/lib/fhir";

const AT = new Date("2026-11-25T09:00:00.000Z");
const guid = (n: number) => `00000000-0000-4000-9000-${n.toString(16).padStart(12, "0")}`;

function fromTodaysForms(): { name: string; built: BuiltMessage }[] {
  const { practitioners: _p, location: _l, ...held } = nphies.DEMO_PARTIES;
  const parties = { ...held, provider: { id: held.provider.id, license: held.provider.license, name: held.provider.name, providerType: held.provider.providerType } };
  const envelope = { providerLicense: parties.provider.license, sourceEndpoint: nphies.DEMO_BASE, timestamp: AT, destination: { payerLicense: parties.insurer.license } };
  const out: { name: string; built: BuiltMessage }[] = [];
  let n = 0;
  for (const use of ["preauthorization", "claim"] as const) {
    for (const type of nphies.CLAIM_TYPES) {
      const claim = { ...nphies.demoClaim(type, use), identifier: [{ system: `${nphies.DEMO_BASE}/claim-id/clinic-1`, value: `form-${type}-${use}` }] };
      const subtype = nphies.SUBTYPES_BY_CLAIM_TYPE[type][0]!;
      const stay = subtype === "ip" || subtype === "emr";
      const encounter = stay && claim.billablePeriod?.start
        ? { encounter: { id: `enc-form-${type}-${use}`, identifier: { system: `${nphies.DEMO_BASE}/encounter`, value: `form-${type}-${use}` }, class: nphies.ENCOUNTER_CLASS_BY_SUBTYPE[subtype][0]!, status: "finished" as const, start: claim.billablePeriod.start, ...(claim.billablePeriod.end ? { end: claim.billablePeriod.end } : {}) } }
        : {};
      const event = use === "claim" ? "claim-request" : "priorauth-request";
      out.push({ name: `${event}-${type} (form)`, built: nphies.assembleMessage({ ...envelope, bundleId: guid(++n), headerId: guid(++n), event, focus: { ...claim, id: guid(++n) }, parties: { ...parties, practitioners: nphies.DEMO_PARTIES.practitioners, ...encounter } }) });
    }
  }
  const eligibility = buildEligibilityRequest({
    identifierValue: guid(++n),
    nationalId: parties.patient.id,
    insurerId: parties.insurer.id,
    providerOrgId: parties.provider.id,
    servicedDate: "2026-11-25",
    purposes: ["benefits"],
    categories: [],
    created: AT,
  });
  out.push({ name: "eligibility-request (form)", built: nphies.assembleMessage({ ...envelope, bundleId: guid(++n), headerId: guid(++n), event: "eligibility-request", focus: { ...eligibility, id: guid(++n) }, parties }) });
  return out;
}

function table(title: string, messages: { name: string; built: BuiltMessage }[]): void {
  const failedBy = new Map<string, Set<string>>();
  const details: string[] = [];
  for (const m of messages) {
    const findings = nphies.checkMessage(m.built.bundle, { today: AT }).findings;
    for (const f of findings) {
      if (!failedBy.has(f.rule)) failedBy.set(f.rule, new Set());
      failedBy.get(f.rule)!.add(m.name);
    }
    if (findings.length > 0) details.push(`${m.name}:\n${findings.map((f) => `  ${f.code} ${f.expression}`).join("\n")}`);
  }
  console.log(`\n## ${title} (${messages.length} messages)\n\n| rule | code | passing / total |\n|---|---|---|`);
  for (const [rule, def] of Object.entries(nphies.RULES)) console.log(`| ${rule} | ${def.code} | ${messages.length - (failedBy.get(rule)?.size ?? 0)} / ${messages.length} |`);
  if (details.length > 0) console.log(`\n${details.join("\n")}`);
}

table("Assembled from complete facts (docs/messages)", nphies.demoMessages().map((m) => ({ name: m.name, built: m.built })));
table("From today's forms, with the parties the database holds", fromTodaysForms());
