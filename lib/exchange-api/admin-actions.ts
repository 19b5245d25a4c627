"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import {
  OrgKeyInputError,
  addOrgKey,
  createOrgClient,
  revokeOrgKey,
  setOrgClientDisabled,
} from "@/lib/api-access/org-keys";
import { audit } from "@/lib/audit";
import { AccessError, authorize, type StaffUser } from "@/lib/auth/guards";
import { getDb } from "@/lib/db";
import { requestContext } from "@/lib/http/request-context";
import { log } from "@/lib/log";

/**
 * Settings → Organization keys (administrators): create or disable an organization client, add a
 * public JWK, revoke a key. Every change is audited; refusals come back as a message key and, for
 * a refused key, the reason in words.
 */

export type OrgKeyActionState =
  | { status: "idle" }
  | { status: "done"; message: "clientCreated" | "clientDisabled" | "clientEnabled" | "keyAdded" | "keyRevoked"; detail?: string }
  | { status: "error"; error: "unauthorized" | "forbidden" | "invalid" | "failed"; detail?: string };

const PATH = "/settings/organization-keys";

async function adminCall(work: (user: StaffUser, ctx: { requestId: string; ip?: string }) => Promise<OrgKeyActionState>): Promise<OrgKeyActionState> {
  try {
    const user = await authorize(["admin"]);
    const ctx = await requestContext();
    const result = await work(user, ctx);
    revalidatePath(PATH);
    return result;
  } catch (error) {
    if (error instanceof AccessError) return { status: "error", error: error.status === 401 ? "unauthorized" : "forbidden" };
    if (error instanceof OrgKeyInputError) return { status: "error", error: "invalid", detail: error.message };
    log("organization-keys").error(`action failed: ${(error as Error).name}`);
    return { status: "error", error: "failed" };
  }
}

const actorOf = (user: StaffUser) => ({ kind: "user" as const, id: user.id, email: user.email, roles: user.roles });

const clientIdField = z.string().trim().min(1).max(100);

export async function createOrgClientAction(_prev: OrgKeyActionState, form: FormData): Promise<OrgKeyActionState> {
  return adminCall(async (user, ctx) => {
    const clientId = clientIdField.safeParse(form.get("clientId"));
    const name = z.string().trim().max(200).safeParse(form.get("name") ?? "");
    if (!clientId.success || !name.success) return { status: "error", error: "invalid" };
    const db = await getDb();
    const client = await createOrgClient(db, { clientId: clientId.data, name: name.data || undefined, createdBy: user.email });
    await audit(db, { actor: actorOf(user), action: "org_client.create", target: { type: "org_client", id: client.id }, outcome: "success", requestId: ctx.requestId, ip: ctx.ip, details: { clientId: client.clientId, name: client.name } });
    return { status: "done", message: "clientCreated", detail: client.clientId };
  });
}

export async function setOrgClientDisabledAction(_prev: OrgKeyActionState, form: FormData): Promise<OrgKeyActionState> {
  return adminCall(async (user, ctx) => {
    const clientId = clientIdField.safeParse(form.get("clientId"));
    const disable = form.get("disable") === "true";
    if (!clientId.success) return { status: "error", error: "invalid" };
    const db = await getDb();
    const client = await setOrgClientDisabled(db, clientId.data, disable);
    await audit(db, { actor: actorOf(user), action: disable ? "org_client.disable" : "org_client.enable", target: { type: "org_client", id: client.id }, outcome: "success", requestId: ctx.requestId, ip: ctx.ip, details: { clientId: client.clientId } });
    return { status: "done", message: disable ? "clientDisabled" : "clientEnabled", detail: client.clientId };
  });
}

export async function addOrgKeyAction(_prev: OrgKeyActionState, form: FormData): Promise<OrgKeyActionState> {
  return adminCall(async (user, ctx) => {
    const clientId = clientIdField.safeParse(form.get("clientId"));
    const jwk = z.string().trim().min(1).max(20_000).safeParse(form.get("jwk"));
    if (!clientId.success || !jwk.success) return { status: "error", error: "invalid" };
    const db = await getDb();
    const { client, key } = await addOrgKey(db, { clientId: clientId.data, jwk: jwk.data, createdBy: user.email });
    await audit(db, { actor: actorOf(user), action: "org_key.add", target: { type: "org_key", id: key.id }, outcome: "success", requestId: ctx.requestId, ip: ctx.ip, details: { clientId: client.clientId, kid: key.kid, alg: key.alg, thumbprint: key.thumbprint } });
    return { status: "done", message: "keyAdded", detail: key.kid };
  });
}

export async function revokeOrgKeyAction(_prev: OrgKeyActionState, form: FormData): Promise<OrgKeyActionState> {
  return adminCall(async (user, ctx) => {
    const clientId = clientIdField.safeParse(form.get("clientId"));
    const kid = z.string().min(1).max(200).safeParse(form.get("kid"));
    if (!clientId.success || !kid.success) return { status: "error", error: "invalid" };
    const db = await getDb();
    const { client, key, alreadyRevoked } = await revokeOrgKey(db, { clientId: clientId.data, kid: kid.data });
    if (!alreadyRevoked) {
      await audit(db, { actor: actorOf(user), action: "org_key.revoke", target: { type: "org_key", id: key.id }, outcome: "success", requestId: ctx.requestId, ip: ctx.ip, details: { clientId: client.clientId, kid: key.kid } });
    }
    return { status: "done", message: "keyRevoked", detail: key.kid };
  });
}
