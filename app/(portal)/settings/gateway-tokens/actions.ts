"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ApiAccessInputError, createGatewayToken, revokeGatewayToken } from "@/lib/api-access/gateway-tokens";
import { audit } from "@/lib/audit";
import { AccessError, authorize, type StaffUser } from "@/lib/auth/guards";
import { getDb } from "@/lib/db";
import { requestContext } from "@/lib/http/request-context";
import type { GatewayTokenActionState } from "@/components/gateway-tokens/types";
import { log } from "@/lib/log";

/**
 * Settings → Gateway tokens (administrators): create a token (shown once) or revoke one. Both are
 * audited with the administrator as actor; the secret itself never reaches the audit log.
 */

const PATH = "/settings/gateway-tokens";

async function adminCall(work: (user: StaffUser, ctx: { requestId: string; ip?: string }) => Promise<GatewayTokenActionState>): Promise<GatewayTokenActionState> {
  try {
    const user = await authorize(["admin"]);
    const ctx = await requestContext();
    const result = await work(user, ctx);
    revalidatePath(PATH);
    return result;
  } catch (error) {
    if (error instanceof AccessError) return { status: "error", error: error.status === 401 ? "unauthorized" : "forbidden" };
    if (error instanceof ApiAccessInputError) return { status: "error", error: "invalid" };
    log("gateway-tokens").error(`action failed: ${(error as Error).name}`);
    return { status: "error", error: "failed" };
  }
}

const actorOf = (user: StaffUser) => ({ kind: "user" as const, id: user.id, email: user.email, roles: user.roles });

export async function createGatewayTokenAction(_prev: GatewayTokenActionState, form: FormData): Promise<GatewayTokenActionState> {
  return adminCall(async (user, ctx) => {
    const name = z.string().trim().min(1).max(100).safeParse(form.get("name"));
    if (!name.success) return { status: "error", error: "invalid", field: "name" };
    const db = await getDb();
    const { token, record } = await createGatewayToken(db, { name: name.data, createdBy: user.email });
    await audit(db, { actor: actorOf(user), action: "gateway_token.create", target: { type: "gateway_token", id: record.id }, outcome: "success", requestId: ctx.requestId, ip: ctx.ip, details: { prefix: record.prefix } });
    return { status: "created", name: record.name, token };
  });
}

export async function revokeGatewayTokenAction(_prev: GatewayTokenActionState, form: FormData): Promise<GatewayTokenActionState> {
  return adminCall(async (user, ctx) => {
    const id = z.uuid().safeParse(form.get("id"));
    if (!id.success) return { status: "error", error: "invalid" };
    const db = await getDb();
    const record = await revokeGatewayToken(db, { id: id.data });
    await audit(db, { actor: actorOf(user), action: "gateway_token.revoke", target: { type: "gateway_token", id: record.id }, outcome: "success", requestId: ctx.requestId, ip: ctx.ip, details: { prefix: record.prefix } });
    return { status: "revoked" };
  });
}
