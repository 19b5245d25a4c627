import { createMetricsToken, currentRecord, revokeMetricsToken } from "@/lib/api-access";
import { audit } from "@/lib/audit";
import type { Db } from "@/lib/db";
import type { AdminCommand } from "./types";

/** The bearer token of GET /api/metrics (Prometheus). */

const cli = { kind: "system", name: "admin-cli" } as const;

function needDb(db: Db | undefined): Db {
  if (!db) throw new Error("This command needs the database.");
  return db;
}

export const metricsCommands: AdminCommand[] = [
  {
    name: "metrics-token:create",
    summary: "Create the bearer token for GET /api/metrics (replaces an existing one); printed once.",
    usage: "metrics-token:create",
    needsDb: true,
    async run({ db }) {
      const { token, record, replaced } = await createMetricsToken(needDb(db));
      await audit(needDb(db), { actor: cli, action: "metrics_token.create", target: { type: "metrics_token", id: record.prefix }, outcome: "success", details: { prefix: record.prefix, replaced } });
      return {
        text: `${replaced ? "Replaced the metrics token (the old one no longer works)." : "Created the metrics token."}\n\n  ${token}\n\nStore it now: it is shown only once. Prometheus: authorization: { type: Bearer, credentials: <token> } on /api/metrics.`,
        json: { token, prefix: record.prefix, createdAt: record.createdAt, replaced },
      };
    },
  },
  {
    name: "metrics-token:show",
    summary: "Show whether a metrics token exists (its prefix and creation time).",
    usage: "metrics-token:show",
    needsDb: true,
    async run({ db }) {
      const record = await currentRecord(needDb(db));
      return {
        text: record ? `Metrics token ${record.prefix}… created ${record.createdAt}.` : "No metrics token: /api/metrics refuses every request.",
        json: record ? { prefix: record.prefix, createdAt: record.createdAt } : null,
      };
    },
  },
  {
    name: "metrics-token:revoke",
    summary: "Revoke the metrics token at once.",
    usage: "metrics-token:revoke",
    needsDb: true,
    async run({ db }) {
      const revoked = await revokeMetricsToken(needDb(db));
      if (revoked) await audit(needDb(db), { actor: cli, action: "metrics_token.revoke", outcome: "success" });
      return { text: revoked ? "Revoked the metrics token." : "There was no metrics token.", json: { revoked } };
    },
  },
];
