import { eq, or } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { insurers, patients } from "@/lib/db";
import { IDENTIFIER_SYSTEMS, NATIONAL_EXCHANGE, PORTAL_CLAIM_IDENTIFIER_SYSTEM_BASE, type ReferenceView } from "@/lib/fhir";
import { coverageIdsNamed } from "@/lib/patients";
import { findSubmissionByReference } from "@/lib/submissions";

/**
 * Maps a reference from a platform answer (any form the readers accept) to the portal's own
 * record: by logical id (relative or absolute URL ending `Type/id`), or by identifier — national ID
 * or Iqama for patients, the portal's Claim identifier for claims, the member id for coverages,
 * the payer licence for insurers. A reference that matches nothing resolves to undefined: it is
 * kept and shown as given, never an error.
 */

export type ResolvedReference =
  | { type: "Patient"; id: string; nationalId: string }
  | { type: "Claim"; id: string; kind: string }
  | { type: "Coverage"; id: string }
  | { type: "Organization"; id: string };

/** Identifier systems that carry a national ID or Iqama number. */
const PERSON_ID_SYSTEMS = new Set<string>([
  IDENTIFIER_SYSTEMS.nationalId,
  "http://nphies.sa/identifier/nationalid",
  "http://nphies.sa/identifier/iqama",
]);
/** Identifier type codes (HL7 v2 0203) for national and resident identity cards. */
const PERSON_ID_TYPES = new Set(["NI", "PRC", "NNSAU"]);

export type ReferenceTarget = ResolvedReference["type"];

export async function resolveReference(db: Db, ref: ReferenceView | undefined, expected: ReferenceTarget): Promise<ResolvedReference | undefined> {
  if (!ref) return undefined;
  if (ref.type && ref.type !== expected) return undefined;
  const id = ref.kind === "relative" || ref.kind === "absolute" ? ref.id : undefined;
  const identifier = ref.identifier;
  switch (expected) {
    case "Patient": {
      // On the platform a Patient's id IS the national ID.
      const byIdentifier =
        identifier?.value && ((identifier.system && PERSON_ID_SYSTEMS.has(identifier.system)) || (identifier.type && PERSON_ID_TYPES.has(identifier.type)))
          ? identifier.value
          : undefined;
      const nationalId = id ?? byIdentifier;
      if (!nationalId) return undefined;
      const [row] = await db.select({ id: patients.id, nationalId: patients.nationalId }).from(patients).where(eq(patients.nationalId, nationalId));
      return row ? { type: "Patient", id: row.id, nationalId: row.nationalId } : undefined;
    }
    case "Claim": {
      const row = await findSubmissionByReference(db, {
        platformId: id,
        identifier: identifier?.value ? { system: identifier.system, value: identifier.value } : undefined,
        ourSystem: (system) => system.startsWith(`${PORTAL_CLAIM_IDENTIFIER_SYSTEM_BASE}/`),
      });
      return row ? { type: "Claim", ...row } : undefined;
    }
    case "Coverage": {
      const value = id ?? identifier?.value;
      if (!value) return undefined;
      const ids = await coverageIdsNamed(db, value, id ? "coverageRef" : "memberIdOrRef");
      return ids.length === 1 ? { type: "Coverage", id: ids[0]! } : undefined;
    }
    case "Organization": {
      if (id) {
        const [row] = await db.select({ id: insurers.id }).from(insurers).where(eq(insurers.id, id));
        if (row) return { type: "Organization", id: row.id };
      }
      if (!identifier?.value) return undefined;
      const byLicense = !identifier.system || identifier.system === NATIONAL_EXCHANGE.payerLicense;
      const [row] = await db
        .select({ id: insurers.id })
        .from(insurers)
        .where(byLicense ? or(eq(insurers.license, identifier.value), eq(insurers.id, identifier.value)) : eq(insurers.id, identifier.value));
      return row ? { type: "Organization", id: row.id } : undefined;
    }
  }
}
