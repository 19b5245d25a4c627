import fs from "node:fs";
import path from "node:path";
import { addOrgKey, ensureOrgClient, listOrgClients, parsePublicJwk, revokeOrgKey } from "@/lib/api-access";
import { dbCommand } from "./db-command";
import { CommandInputError, single, type AdminCommand } from "./types";

/**
 * Organization keys of the provider-side exchange API (/api/exchange): register a public JWK for
 * an organization client (created when missing), list them, revoke one. Every change is audited.
 */

function readJwkFile(file: string): unknown {
  // Through the admin socket the portal reads the file: relative paths are taken from its working directory.
  const resolved = path.resolve(file);
  let text: string;
  try {
    text = fs.readFileSync(resolved, "utf8");
  } catch (error) {
    throw new CommandInputError(`Cannot read ${resolved}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CommandInputError(`${resolved} is not JSON: it must hold one public JWK (e.g. exported with jose's exportJWK).`);
  }
}

const fmt = (d: Date | null) => (d ? d.toISOString() : "");

export const orgKeyCommands: AdminCommand[] = [
  dbCommand({
    name: "org-key:add",
    summary: "Register an organization's public key (JWK, RS256 or ES256) for /api/exchange; creates the org client if missing.",
    usage: "org-key:add --org ID --jwk-file PATH [--name N]",
    async run({ flags, db, audit }) {
      const clientId = single(flags, "org")!;
      const file = single(flags, "jwk-file")!;
      const jwk = readJwkFile(file);
      // Check the key before creating anything, so a refused key leaves no empty client behind.
      await parsePublicJwk(jwk);
      const database = db;
      const { client, created } = await ensureOrgClient(database, { clientId, name: single(flags, "name", false), createdBy: "admin-cli" });
      if (created) {
        await audit({ action: "org_client.create", target: { type: "org_client", id: client.id }, outcome: "success", details: { clientId: client.clientId, name: client.name } });
      }
      const { key } = await addOrgKey(database, { clientId: client.clientId, jwk, createdBy: "admin-cli" });
      await audit({
        action: "org_key.add",
        target: { type: "org_key", id: key.id },
        outcome: "success",
        details: { clientId: client.clientId, kid: key.kid, alg: key.alg, thumbprint: key.thumbprint },
      });
      return {
        text: `${created ? `Created organization client ${client.clientId}. ` : ""}Registered key ${key.kid} (${key.alg}, thumbprint ${key.thumbprint}) for ${client.clientId}.`,
        json: { clientId: client.clientId, clientCreated: created, kid: key.kid, alg: key.alg, thumbprint: key.thumbprint, createdAt: key.createdAt },
      };
    },
  }),
  dbCommand({
    name: "org-key:list",
    summary: "List organization clients of /api/exchange and their keys.",
    usage: "org-key:list",
    async run({ db }) {
      const clients = await listOrgClients(db);
      const lines = clients.flatMap((c) => [
        `${c.clientId}  ${c.name}${c.disabledAt ? "  (disabled)" : ""}`,
        ...(c.keys.length
          ? c.keys.map((k) => `    ${k.kid.padEnd(44)} ${k.alg}  ${k.thumbprint}  ${fmt(k.createdAt)}${k.revokedAt ? `  revoked ${fmt(k.revokedAt)}` : ""}`)
          : ["    (no keys)"]),
      ]);
      return {
        text: lines.join("\n") || "No organization clients.",
        json: clients.map((c) => ({
          clientId: c.clientId,
          name: c.name,
          createdAt: c.createdAt,
          disabledAt: c.disabledAt,
          keys: c.keys.map((k) => ({ kid: k.kid, alg: k.alg, thumbprint: k.thumbprint, createdAt: k.createdAt, revokedAt: k.revokedAt })),
        })),
      };
    },
  }),
  dbCommand({
    name: "org-key:revoke",
    summary: "Revoke one key of an organization client (JWTs signed with it are refused at once).",
    usage: "org-key:revoke --org ID --kid K",
    async run({ flags, db, audit }) {
      const clientId = single(flags, "org")!;
      const kid = single(flags, "kid")!;
      const database = db;
      const { client, key, alreadyRevoked } = await revokeOrgKey(database, { clientId, kid });
      if (!alreadyRevoked) {
        await audit({ action: "org_key.revoke", target: { type: "org_key", id: key.id }, outcome: "success", details: { clientId: client.clientId, kid: key.kid } });
      }
      return {
        text: alreadyRevoked ? `Key ${key.kid} of ${client.clientId} was already revoked.` : `Revoked key ${key.kid} of ${client.clientId}.`,
        json: { clientId: client.clientId, kid: key.kid, revokedAt: key.revokedAt, alreadyRevoked },
      };
    },
  }),
];
