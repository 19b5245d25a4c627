import { createApiKey, listApiKeys, revokeApiKey, createOAuthClient, listOAuthClients, revokeOAuthClient } from "@/lib/api-access";
import { env } from "@/lib/env";
import { dbCommand } from "./db-command";
import { CommandInputError, single, type AdminCommand } from "./types";

/** API keys and OAuth clients of the generic claims API (`GET /v1/claims`). */

/** `--scope a --scope b` or `--scope a,b`. */
function scopes(flags: Record<string, string[]>): string[] {
  const values = (flags.scope ?? []).filter((v) => v !== "true").flatMap((v) => v.split(/[\s,]+/));
  if (values.length === 0) throw new CommandInputError("--scope is required (claims:read).");
  return values;
}

const environment = (flags: Record<string, string[]>) => single(flags, "env", false) ?? env().PLATFORM_ENV;
const iso = (d: Date | null) => d?.toISOString() ?? null;

export const apiAccessCommands: AdminCommand[] = [
  dbCommand({
    name: "api-key:create",
    summary: "Create an API key for the generic claims API; the key is printed once.",
    usage: "api-key:create --name N --scope claims:read [--env sandbox|production]",
    async run({ flags, db, audit }) {
      const { key, record } = await createApiKey(db, { name: single(flags, "name")!, environment: environment(flags), scopes: scopes(flags), createdBy: "admin-cli" });
      await audit({ action: "api_key.create", target: { type: "api_key", id: record.id }, outcome: "success", details: { prefix: record.prefix, environment: record.environment, scopes: record.scopes } });
      return {
        text: `Created API key "${record.name}" (${record.environment}, ${record.scopes.join(" ")}).\n\n  ${key}\n\nStore it now: it is shown only once. Send it in the X-API-Key header.`,
        json: { id: record.id, name: record.name, key, prefix: record.prefix, environment: record.environment, scopes: record.scopes, createdAt: iso(record.createdAt) },
      };
    },
  }),
  dbCommand({
    name: "api-key:list",
    summary: "List API keys (prefix, environment, scopes, last use, status).",
    usage: "api-key:list",
    async run({ db }) {
      const keys = await listApiKeys(db);
      return {
        text:
          keys
            .map((k) => `${k.prefix.padEnd(16)} ${(k.revokedAt ? "revoked" : "active").padEnd(8)} ${k.environment.padEnd(10)} ${k.scopes.join(",").padEnd(12)} last used ${iso(k.lastUsedAt) ?? "never"}  ${k.name}`)
            .join("\n") || "No API keys.",
        json: keys.map((k) => ({ id: k.id, name: k.name, prefix: k.prefix, environment: k.environment, scopes: k.scopes, createdAt: iso(k.createdAt), lastUsedAt: iso(k.lastUsedAt), revokedAt: iso(k.revokedAt) })),
      };
    },
  }),
  dbCommand({
    name: "api-key:revoke",
    summary: "Revoke an API key at once.",
    usage: "api-key:revoke --prefix P | --id ID",
    async run({ flags, db, audit }) {
      const record = await revokeApiKey(db, { id: single(flags, "id", false), prefix: single(flags, "prefix", false) });
      await audit({ action: "api_key.revoke", target: { type: "api_key", id: record.id }, outcome: "success", details: { prefix: record.prefix } });
      return { text: `Revoked API key ${record.prefix} ("${record.name}").`, json: { id: record.id, prefix: record.prefix, revokedAt: iso(record.revokedAt) } };
    },
  }),
  dbCommand({
    name: "oauth-client:create",
    summary: "Create an OAuth 2.0 client (client credentials); the secret is printed once.",
    usage: "oauth-client:create --name N --scope claims:read [--env sandbox|production]",
    async run({ flags, db, audit }) {
      const { clientId, clientSecret, record } = await createOAuthClient(db, { name: single(flags, "name")!, environment: environment(flags), scopes: scopes(flags), createdBy: "admin-cli" });
      await audit({ action: "oauth_client.create", target: { type: "oauth_client", id: record.id }, outcome: "success", details: { clientId, environment: record.environment, scopes: record.scopes } });
      return {
        text: `Created OAuth client "${record.name}" (${record.environment}, ${record.scopes.join(" ")}).\n\n  client_id:     ${clientId}\n  client_secret: ${clientSecret}\n\nStore the secret now: it is shown only once. Tokens: POST /oauth/token with grant_type=client_credentials.`,
        json: { id: record.id, name: record.name, clientId, clientSecret, environment: record.environment, scopes: record.scopes, createdAt: iso(record.createdAt) },
      };
    },
  }),
  dbCommand({
    name: "oauth-client:list",
    summary: "List OAuth clients (client id, environment, scopes, last token, status).",
    usage: "oauth-client:list",
    async run({ db }) {
      const clients = await listOAuthClients(db);
      return {
        text:
          clients
            .map((c) => `${c.clientId.padEnd(26)} ${(c.revokedAt ? "revoked" : "active").padEnd(8)} ${c.environment.padEnd(10)} ${c.scopes.join(",").padEnd(12)} last token ${iso(c.lastUsedAt) ?? "never"}  ${c.name}`)
            .join("\n") || "No OAuth clients.",
        json: clients.map((c) => ({ id: c.id, name: c.name, clientId: c.clientId, environment: c.environment, scopes: c.scopes, createdAt: iso(c.createdAt), lastUsedAt: iso(c.lastUsedAt), revokedAt: iso(c.revokedAt) })),
      };
    },
  }),
  dbCommand({
    name: "oauth-client:revoke",
    summary: "Revoke an OAuth client and every token it holds, at once.",
    usage: "oauth-client:revoke --client-id C | --id ID",
    async run({ flags, db, audit }) {
      const record = await revokeOAuthClient(db, { id: single(flags, "id", false), clientId: single(flags, "client-id", false) });
      await audit({ action: "oauth_client.revoke", target: { type: "oauth_client", id: record.id }, outcome: "success", details: { clientId: record.clientId } });
      return { text: `Revoked OAuth client ${record.clientId} ("${record.name}") and its tokens.`, json: { id: record.id, clientId: record.clientId, revokedAt: iso(record.revokedAt) } };
    },
  }),
];
