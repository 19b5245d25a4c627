import { getLocale } from "next-intl/server";
import { CODE_SYSTEMS, findCode } from "@/lib/fhir/browser";

/** ICD-10-AM codes of a stored Claim (`diagnosis[].diagnosisCodeableConcept.coding`), in order. */
function diagnosisCodes(claim: Record<string, unknown> | null | undefined): string[] {
  const list = Array.isArray(claim?.diagnosis) ? (claim.diagnosis as unknown[]) : [];
  return list.flatMap((d) => {
    const concept = (d as { diagnosisCodeableConcept?: { coding?: unknown } } | null)?.diagnosisCodeableConcept;
    const codings = Array.isArray(concept?.coding) ? (concept.coding as { system?: unknown; code?: unknown }[]) : [];
    const coding = codings.find((c) => typeof c?.code === "string" && (c.system === undefined || c.system === CODE_SYSTEMS.icd10am));
    return typeof coding?.code === "string" ? [coding.code] : [];
  });
}

/** The claim's diagnoses: each code with its description in the page's language (the pickers' catalogue). */
export async function DiagnosisList({ claim }: { claim: Record<string, unknown> | null | undefined }) {
  const locale = (await getLocale()) === "ar" ? "ar" : "en";
  const codes = diagnosisCodes(claim);
  if (codes.length === 0) return <>—</>;
  return (
    <ul className="space-y-0.5" data-testid="diagnosis-list">
      {codes.map((code, i) => (
        <li key={`${code}-${i}`}>
          <bdi dir="ltr" className="font-mono text-xs font-semibold">
            {code}
          </bdi>
          {findCode("icd10am", code) && <span className="ms-2">{findCode("icd10am", code)!.display[locale]}</span>}
        </li>
      ))}
    </ul>
  );
}
