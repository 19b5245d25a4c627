"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { manyValues, staffFormAction, AREAS } from "@/lib/auth";
import type { ActionFailure } from "@/lib/auth";
import { isUuid } from "@/lib/ids";
import { ApiAccessInputError, createApiKey, createGatewayToken, revokeApiKey, revokeGatewayToken } from "./credentials";
import { createOAuthClient, revokeOAuthClient } from "./oauth";
import { OrgKeyInputError, addOrgKey, createOrgClient, revokeOrgKey, setOrgClientDisabled } from "./org-keys";

/**
 * Settings (administrators): the credentials machines use — API keys and OAuth clients of the
 * generic claims API, gateway tokens, organization clients and their JWT keys. A new secret is
 * returned once, to the browser that created it, and never stored in clear; every change is
 * audited with the administrator as actor (never the secret).
 */

const admins = AREAS.settings.roles;

/** Input the credential store refuses (an unknown prefix, a bad JWK): the reason, in words. */
function refusal(error: unknown): ActionFailure | undefined {
  if (error instanceof ApiAccessInputError || error instanceof OrgKeyInputError) return { ok: false, error: "invalid", detail: error.message };
  return undefined;
}
/** A bad name is shown on the name field; anything else as one message. */
function invalidName(error: z.ZodError): ActionFailure {
  return { ok: false, error: "invalid", field: error.issues.some((i) => i.path[0] === "name") ? "name" : undefined };
}
const options = (name: string) => ({ name, refusal, invalid: invalidName });

const name = z.string().trim().min(1).max(100);
const credentialInput = z.object({ name, environment: z.enum(["sandbox", "production"]), scope: manyValues(z.enum(["claims:read"])).refine((s) => s.length > 0, "choose a scope") });
const byId = z.object({ id: z.string().refine(isUuid) });

export const createApiKeyAction = staffFormAction(
  admins,
  credentialInput,
  async (input, ctx) => {
    const { key, record } = await createApiKey(ctx.db, { name: input.name, environment: input.environment, scopes: input.scope, createdBy: ctx.user.id });
    await ctx.audit({ action: "api_key.create", target: { type: "api_key", id: record.id }, outcome: "success", details: { prefix: record.prefix, environment: record.environment, scopes: record.scopes } });
    revalidatePath("/settings/api-access");
    return { ok: true, kind: "key" as const, name: record.name, key, prefix: record.prefix };
  },
  options("api-access"),
);

export const revokeApiKeyAction = staffFormAction(
  admins,
  byId,
  async ({ id }, ctx) => {
    const record = await revokeApiKey(ctx.db, { id });
    await ctx.audit({ action: "api_key.revoke", target: { type: "api_key", id: record.id }, outcome: "success", details: { prefix: record.prefix } });
    revalidatePath("/settings/api-access");
    return { ok: true };
  },
  options("api-access"),
);

export const createOAuthClientAction = staffFormAction(
  admins,
  credentialInput,
  async (input, ctx) => {
    const { clientId, clientSecret, record } = await createOAuthClient(ctx.db, { name: input.name, environment: input.environment, scopes: input.scope, createdBy: ctx.user.id });
    await ctx.audit({ action: "oauth_client.create", target: { type: "oauth_client", id: record.id }, outcome: "success", details: { clientId, environment: record.environment, scopes: record.scopes } });
    revalidatePath("/settings/api-access");
    return { ok: true, kind: "client" as const, name: record.name, clientId, clientSecret };
  },
  options("api-access"),
);

export const revokeOAuthClientAction = staffFormAction(
  admins,
  byId,
  async ({ id }, ctx) => {
    const record = await revokeOAuthClient(ctx.db, { id });
    await ctx.audit({ action: "oauth_client.revoke", target: { type: "oauth_client", id: record.id }, outcome: "success", details: { clientId: record.clientId } });
    revalidatePath("/settings/api-access");
    return { ok: true };
  },
  options("api-access"),
);

export const createGatewayTokenAction = staffFormAction(
  admins,
  z.object({ name }),
  async (input, ctx) => {
    const { token, record } = await createGatewayToken(ctx.db, { name: input.name, createdBy: ctx.user.email });
    await ctx.audit({ action: "gateway_token.create", target: { type: "gateway_token", id: record.id }, outcome: "success", details: { prefix: record.prefix } });
    revalidatePath("/settings/gateway-tokens");
    return { ok: true, kind: "token" as const, name: record.name, token };
  },
  options("gateway-tokens"),
);

export const revokeGatewayTokenAction = staffFormAction(
  admins,
  byId,
  async ({ id }, ctx) => {
    const record = await revokeGatewayToken(ctx.db, { id });
    await ctx.audit({ action: "gateway_token.revoke", target: { type: "gateway_token", id: record.id }, outcome: "success", details: { prefix: record.prefix } });
    revalidatePath("/settings/gateway-tokens");
    return { ok: true };
  },
  options("gateway-tokens"),
);

// ── Organization clients and keys (provider-side exchange API) ──────────────────────────────────

const clientId = z.string().trim().min(1).max(100);
const ORG_PATH = "/settings/organization-keys";
export type OrgKeyMessage = "clientCreated" | "clientDisabled" | "clientEnabled" | "keyAdded" | "keyRevoked";

export const createOrgClientAction = staffFormAction(
  admins,
  z.object({ clientId, name: z.string().trim().max(200).optional() }),
  async (input, ctx) => {
    const client = await createOrgClient(ctx.db, { clientId: input.clientId, name: input.name || undefined, createdBy: ctx.user.email });
    await ctx.audit({ action: "org_client.create", target: { type: "org_client", id: client.id }, outcome: "success", details: { clientId: client.clientId, name: client.name } });
    revalidatePath(ORG_PATH);
    return { ok: true, message: "clientCreated" as OrgKeyMessage, detail: client.clientId };
  },
  { name: "organization-keys", refusal },
);

export const setOrgClientDisabledAction = staffFormAction(
  admins,
  z.object({ clientId, disable: z.enum(["true", "false"]).optional() }),
  async (input, ctx) => {
    const disable = input.disable === "true";
    const client = await setOrgClientDisabled(ctx.db, input.clientId, disable);
    await ctx.audit({ action: disable ? "org_client.disable" : "org_client.enable", target: { type: "org_client", id: client.id }, outcome: "success", details: { clientId: client.clientId } });
    revalidatePath(ORG_PATH);
    return { ok: true, message: (disable ? "clientDisabled" : "clientEnabled") as OrgKeyMessage, detail: client.clientId };
  },
  { name: "organization-keys", refusal },
);

export const addOrgKeyAction = staffFormAction(
  admins,
  z.object({ clientId, jwk: z.string().trim().min(1).max(20_000) }),
  async (input, ctx) => {
    const { client, key } = await addOrgKey(ctx.db, { clientId: input.clientId, jwk: input.jwk, createdBy: ctx.user.email });
    await ctx.audit({ action: "org_key.add", target: { type: "org_key", id: key.id }, outcome: "success", details: { clientId: client.clientId, kid: key.kid, alg: key.alg, thumbprint: key.thumbprint } });
    revalidatePath(ORG_PATH);
    return { ok: true, message: "keyAdded" as OrgKeyMessage, detail: key.kid };
  },
  { name: "organization-keys", refusal },
);

export const revokeOrgKeyAction = staffFormAction(
  admins,
  z.object({ clientId, kid: z.string().min(1).max(200) }),
  async (input, ctx) => {
    const { client, key, alreadyRevoked } = await revokeOrgKey(ctx.db, { clientId: input.clientId, kid: input.kid });
    if (!alreadyRevoked) {
      await ctx.audit({ action: "org_key.revoke", target: { type: "org_key", id: key.id }, outcome: "success", details: { clientId: client.clientId, kid: key.kid } });
    }
    revalidatePath(ORG_PATH);
    return { ok: true, message: "keyRevoked" as OrgKeyMessage, detail: key.kid };
  },
  { name: "organization-keys", refusal },
);
