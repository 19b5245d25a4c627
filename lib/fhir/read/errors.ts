/**
 * The one error a reader throws: the answer is not valid FHIR R4 (or not the resource expected).
 * `path` names the element in FHIRPath-like form (`ClaimResponse.item[0].adjudication`), `reason`
 * says what is wrong in words. Never carries the offending value: it could be patient data.
 */
export class FhirReadError extends Error {
  override name = "FhirReadError";
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

/** The readers' result: the view the portal shows and stores, and the resource exactly as received. */
export interface Read<V, R = Record<string, unknown>> {
  view: V;
  raw: R;
}
