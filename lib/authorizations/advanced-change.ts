import { randomUUID } from "node:crypto";
import type { Communication } from "@medplum/fhirtypes";
import { audit, type Caller } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { claimReference } from "@/lib/fhir";
import { PlatformError, portOf, type PortSource } from "@/lib/platform";
import { PAYER_CHANNEL, getSubmission, lockSubmission, noteOnTimeline } from "@/lib/submissions";

/** The most the clinic writes to the payer about one approval (the payer reads it; nothing is cut). */
export const CHANGE_TEXT_MAX = 2000;

export interface ChangeAskDeps {
  db: Db;
  port: PortSource;
  providerOrgId: string;
  clock?: () => Date;
}

export type ChangeAskResult = { ok: true } | { ok: false; error: "not_found" | "not_changeable" | "empty" | "too_long" | "platform"; reason?: string };

/**
 * The clinic asks the payer to modify or extend its advanced authorization (guide v2.7 Table 38,
 * docs/decisions/101): an unsolicited Communication whose `about` names the approval by its
 * business identifier and whose payload says what to change. The payer answers with a reissued
 * approval (same preAuthRef), which the inbound routing applies. Noted on the timeline (without the
 * text: the timeline is patient-free) and audited.
 */
export async function askPayerToChange(deps: ChangeAskDeps, caller: Caller, input: { id: string; text: string }): Promise<ChangeAskResult> {
  const text = input.text.trim();
  if (!text) return { ok: false, error: "empty" };
  if (text.length > CHANGE_TEXT_MAX) return { ok: false, error: "too_long" };
  const row = await getSubmission(deps.db, input.id);
  if (!row || row.kind !== "preauthorization" || row.channel !== PAYER_CHANNEL || !row.identifierValue) return { ok: false, error: "not_found" };
  if (row.status !== "complete" && row.status !== "partial") return { ok: false, error: "not_changeable" };
  const now = (deps.clock ?? (() => new Date()))();
  const id = randomUUID();
  const communication: Communication = {
    resourceType: "Communication",
    id,
    identifier: [{ system: `https://clinic.example/fhir/communication-id/${deps.providerOrgId}`, value: id }],
    status: "completed",
    category: [{ coding: [{ system: "http://terminology.hl7.org/CodeSystem/communication-category", code: "instruction" }] }],
    priority: "routine",
    subject: { reference: `Patient/${row.patientNationalId}` },
    about: [claimReference({ identifier: { ...(row.identifierSystem ? { system: row.identifierSystem } : {}), value: row.identifierValue } })],
    sent: now.toISOString(),
    sender: { reference: `Organization/${deps.providerOrgId}` },
    ...(row.insurerId ? { recipient: [{ reference: `Organization/${row.insurerId}` }] } : {}),
    payload: [{ contentString: text }],
  };
  let sent;
  try {
    sent = await (await portOf(deps.port, row.facilityId)).sendCommunication(communication, { requestId: caller.requestId });
  } catch (error) {
    await audit(deps.db, { actor: caller.actor, action: "authorization.ask_payer_change", target: { type: "submission", id: row.id }, outcome: "failure", requestId: caller.requestId, ip: caller.ip });
    return { ok: false, error: "platform", ...(error instanceof PlatformError ? { reason: error.resolution ?? error.message } : {}) };
  }
  await deps.db.transaction(async (tx) => {
    const current = await lockSubmission(tx, row.id);
    if (current) await noteOnTimeline(tx, current, { kind: "submission.note", note: "changeAsked", source: "user", requestId: sent.requestId, detail: { origin: PAYER_CHANNEL, communicationId: id } }, now);
  });
  await audit(deps.db, { actor: caller.actor, action: "authorization.ask_payer_change", target: { type: "submission", id: row.id }, outcome: "success", requestId: caller.requestId, ip: caller.ip, details: { communicationId: id, characters: text.length } });
  return { ok: true };
}
