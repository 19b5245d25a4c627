/** FHIR JSON answers of the exchange API: the kernel's (lib/api). */
export { FHIR_CONTENT_TYPE, fhirResponse } from "@/lib/api";
