/**
 * What the browser may import from lib/submissions: the form's pure helpers — never the database
 * (docs/decisions/041-module-entries.md).
 */
export { lineTotalMinor, parseAmountMinor, parseQuantity } from "./form-money";
export { emptyItem } from "./empty-item";
import type { MdsCodeLists } from "@/lib/fhir/mds";
export { CPT_SYSTEM, defaultItemSystem, itemSystemsFor, itemSystemsOfProtocol, type PlatformProtocol } from "./care-setting";

/** The form's schema (and zod), loaded when the form is first used: not in the page's first-load JavaScript. */
export const loadSubmissionFormSchema = () => import("./form-schema").then((m) => m.submissionFormSchema);

/**
 * The form's schema where the message goes to the national exchange (messaging): the same schema,
 * then what the exchange's Minimum Data Set requires of this visit (`clinicalIssues`,
 * docs/decisions/103, 105), its codes from the lists the form offered (`lists`: the catalogue's,
 * decision 118). Loaded like the schema, on first use.
 */
export const loadExchangeSubmissionFormSchema = (lists?: MdsCodeLists) =>
  Promise.all([import("./form-schema"), import("./clinical-schema")]).then(([{ submissionFormSchema }, { clinicalIssues }]) =>
    submissionFormSchema.superRefine((values, ctx) => {
      const { use, claimType, subtype, diagnoses, discharge, clinical } = values;
      for (const issue of clinicalIssues({ use, claimType, subtype, diagnoses, discharge, clinical, lists })) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    }),
  );
