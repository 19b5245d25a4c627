"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ApiAccessInputError, createApiKey, revokeApiKey } from "@/lib/api-access/api-keys";
import { createOAuthClient, revokeOAuthClient } from "@/lib/api-access/oauth";
import { audit } from "@/lib/audit";
import { AccessError, authorize, type StaffUser } from "@/lib/auth/guards";
import { getDb } from "@/lib/db";
import { requestContext } from "@/lib/http/request-context";
import type { ApiAccessActionState } from "@/components/api-access/types";
import { log } from "@/lib/log";

/**
 * Settings → API access (administrators): create and revoke API keys and OAuth clients of the
 * generic claims API. A new secret is returned once, to the browser that created it, and never
 * stored in clear; every change is audited.
 */

const PATH = "/settings/api-access";

/** One schema for the create forms (the browser checks the same limits with required/maxLength). */
const createSchema = z.object({
  name: z.string().trim().min(1).max(100),
  environment: z.enum(["sandbox", "production"]),
  scope: z.array(z.enum(["claims:read"])).min(1),
});
const idSchema = z.uuid();

async function adminCall(work: (user: StaffUser, ctx: { requestId: string; ip?: string }) => Promise<ApiAccessActionState>): Promise<ApiAccessActionState> {
  try {
    const user = await authorize(["admin"]);
    const result = await work(user, await requestContext());
    revalidatePath(PATH);
    return result;
  } catch (error) {
    if (error instanceof AccessError) return { status: "error", error: error.status === 401 ? "unauthorized" : "forbidden" };
    if (error instanceof ApiAccessInputError) return { status: "error", error: "invalid", detail: error.message };
    log("api-access").error(`action failed: ${(error as Error).name}`);
    return { status: "error", error: "failed" };
  }
}

const actorOf = (user: StaffUser) => ({ kind: "user" as const, id: user.id, email: user.email, roles: user.roles });

function parseCreate(form: FormData) {
  return createSchema.safeParse({ name: form.get("name"), environment: form.get("environment"), scope: form.getAll("scope") });
}

export async function createApiKeyAction(_prev: ApiAccessActionState, form: FormData): Promise<ApiAccessActionState> {
  return adminCall(async (user, ctx) => {
    const input = parseCreate(form);
    if (!input.success) return { status: "error", error: "invalid", field: input.error.issues.some((i) => i.path[0] === "name") ? "name" : undefined };
    const db = await getDb();
    const { key, record } = await createApiKey(db, { name: input.data.name, environment: input.data.environment, scopes: input.data.scope, createdBy: user.id });
    await audit(db, {
      actor: actorOf(user),
      action: "api_key.create",
      target: { type: "api_key", id: record.id },
      outcome: "success",
      requestId: ctx.requestId,
      ip: ctx.ip,
      details: { prefix: record.prefix, environment: record.environment, scopes: record.scopes },
    });
    return { status: "created", kind: "key", name: record.name, key, prefix: record.prefix };
  });
}

export async function revokeApiKeyAction(_prev: ApiAccessActionState, form: FormData): Promise<ApiAccessActionState> {
  return adminCall(async (user, ctx) => {
    const id = idSchema.safeParse(form.get("id"));
    if (!id.success) return { status: "error", error: "invalid" };
    const db = await getDb();
    const record = await revokeApiKey(db, { id: id.data });
    await audit(db, { actor: actorOf(user), action: "api_key.revoke", target: { type: "api_key", id: record.id }, outcome: "success", requestId: ctx.requestId, ip: ctx.ip, details: { prefix: record.prefix } });
    return { status: "revoked" };
  });
}

export async function createOAuthClientAction(_prev: ApiAccessActionState, form: FormData): Promise<ApiAccessActionState> {
  return adminCall(async (user, ctx) => {
    const input = parseCreate(form);
    if (!input.success) return { status: "error", error: "invalid", field: input.error.issues.some((i) => i.path[0] === "name") ? "name" : undefined };
    const db = await getDb();
    const { clientId, clientSecret, record } = await createOAuthClient(db, { name: input.data.name, environment: input.data.environment, scopes: input.data.scope, createdBy: user.id });
    await audit(db, {
      actor: actorOf(user),
      action: "oauth_client.create",
      target: { type: "oauth_client", id: record.id },
      outcome: "success",
      requestId: ctx.requestId,
      ip: ctx.ip,
      details: { clientId, environment: record.environment, scopes: record.scopes },
    });
    return { status: "created", kind: "client", name: record.name, clientId, clientSecret };
  });
}

export async function revokeOAuthClientAction(_prev: ApiAccessActionState, form: FormData): Promise<ApiAccessActionState> {
  return adminCall(async (user, ctx) => {
    const id = idSchema.safeParse(form.get("id"));
    if (!id.success) return { status: "error", error: "invalid" };
    const db = await getDb();
    const record = await revokeOAuthClient(db, { id: id.data });
    await audit(db, { actor: actorOf(user), action: "oauth_client.revoke", target: { type: "oauth_client", id: record.id }, outcome: "success", requestId: ctx.requestId, ip: ctx.ip, details: { clientId: record.clientId } });
    return { status: "revoked" };
  });
}
