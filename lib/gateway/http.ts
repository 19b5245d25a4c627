/** JSON and FHIR answers of the gateway: the kernel's (lib/api). Errors are AppError (lib/api/errors.ts). */
export { fhirResponse as fhirJsonResponse, issuePath, jsonResponse, readJsonObject, type FieldIssue } from "@/lib/api";
