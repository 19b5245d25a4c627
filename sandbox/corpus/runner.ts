import type { TestSandbox } from "../test-support";
import * as m from "./nphies-message";
import type { Runner } from "./valid";

type Json = Record<string, unknown>;

/** Test-side runner of corpus messages against a started test sandbox (sandbox/test-support.ts). */
export function corpusRunner(t: TestSandbox): Runner & { seen: Map<string, Json> } {
  /** The newest ClaimResponse seen per clinic claim identifier (sync answers and polls). */
  const seen = new Map<string, Json>();
  const remember = (bundle: Json) => {
    for (const entry of (bundle.entry as Json[] | undefined) ?? []) {
      const resource = entry.resource as Json | undefined;
      if (resource?.resourceType === "Bundle") remember(resource);
      if (resource?.resourceType === "ClaimResponse") {
        const value = ((resource.request as Json | undefined)?.identifier as Json | undefined)?.value;
        if (typeof value === "string") seen.set(value, resource);
      }
    }
  };
  const send = async (message: Json) => {
    const res = await t.call("POST", "/$process-message", { body: message });
    if (res.status === 200) remember(res.body);
    return { status: res.status, body: res.body };
  };
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await t.admin(method, path, body);
    return { status: res.status, body: res.body };
  };
  const claimId = async (identifier: string) => {
    const res = await t.admin("GET", "/_admin/claims");
    const hit = (res.body.claims as { id: string; identifier: string }[]).find((c) => c.identifier === identifier);
    if (!hit) throw new Error(`no claim with identifier ${identifier}`);
    return hit.id;
  };
  const decided = async (identifier: string) => {
    const e = m.env();
    for (let i = 0; i < 100; i++) {
      const current = seen.get(identifier);
      if (current && current.outcome !== "queued") return current;
      const provider = m.party(m.providerOrganization(), "absolute");
      await send(m.message("poll-request", m.pollTask(provider, e, ["claim-response"]), [provider], "exchange", e));
      await new Promise((r) => setTimeout(r, 30));
    }
    throw new Error(`claim ${identifier} was not decided`);
  };
  return { send, admin, claimId, decided, seen };
}
