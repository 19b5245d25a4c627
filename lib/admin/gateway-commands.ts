import { createGatewayToken, listGatewayTokens, revokeGatewayToken } from "@/lib/api-access";
import { dbCommand } from "./db-command";
import { single, type AdminCommand } from "./types";

/** Bearer tokens of the agent gateway (`POST /query`, `/fhir/**`, `/mcp/{agent}`). */

const iso = (d: Date | null) => d?.toISOString() ?? null;

export const gatewayCommands: AdminCommand[] = [
  dbCommand({
    name: "gateway-token:create",
    summary: "Create a bearer token for the agent gateway (/query, /fhir); the token is printed once.",
    usage: "gateway-token:create --name N",
    async run({ flags, db, audit }) {
      const { token, record } = await createGatewayToken(db, { name: single(flags, "name")!, createdBy: "admin-cli" });
      await audit({ action: "gateway_token.create", target: { type: "gateway_token", id: record.id }, outcome: "success", details: { prefix: record.prefix } });
      return {
        text: `Created gateway token "${record.name}".\n\n  ${token}\n\nStore it now: it is shown only once. Send it as Authorization: Bearer <token> to /query, /fhir and /mcp/<agent>.`,
        json: { id: record.id, name: record.name, token, prefix: record.prefix, createdAt: iso(record.createdAt) },
      };
    },
  }),
  dbCommand({
    name: "gateway-token:list",
    summary: "List gateway tokens (prefix, status, last use).",
    usage: "gateway-token:list",
    async run({ db }) {
      const tokens = await listGatewayTokens(db);
      return {
        text:
          tokens.map((k) => `${k.prefix.padEnd(12)} ${(k.revokedAt ? "revoked" : "active").padEnd(8)} last used ${iso(k.lastUsedAt) ?? "never"}  ${k.name}`).join("\n") ||
          "No gateway tokens.",
        json: tokens.map((k) => ({ id: k.id, name: k.name, prefix: k.prefix, createdBy: k.createdBy, createdAt: iso(k.createdAt), lastUsedAt: iso(k.lastUsedAt), revokedAt: iso(k.revokedAt) })),
      };
    },
  }),
  dbCommand({
    name: "gateway-token:revoke",
    summary: "Revoke a gateway token at once.",
    usage: "gateway-token:revoke --prefix P | --id ID",
    async run({ flags, db, audit }) {
      const record = await revokeGatewayToken(db, { id: single(flags, "id", false), prefix: single(flags, "prefix", false) });
      await audit({ action: "gateway_token.revoke", target: { type: "gateway_token", id: record.id }, outcome: "success", details: { prefix: record.prefix } });
      return { text: `Revoked gateway token ${record.prefix} ("${record.name}").`, json: { id: record.id, prefix: record.prefix, revokedAt: iso(record.revokedAt) } };
    },
  }),
];
