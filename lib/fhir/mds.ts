/**
 * The exchange's Minimum Data Set (docs/decisions/103) as its own entry, for screens and schemas:
 * imported as a namespace (`import * as mds from "@/lib/fhir/mds"`) only where a page needs it, so
 * it is not in the JavaScript of every page that reads lib/fhir's browser entry.
 */
export * from "./nphies/mds";
