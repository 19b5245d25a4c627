import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendAdminCommand, startAdminSocket } from "@/lib/admin/socket";
import { storeAttachment } from "@/lib/attachments/store";
import { tinyPdf } from "@/lib/attachments/testing/fixtures";
import { audit } from "@/lib/audit";
import { openDatabase, type Database } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { submit } from "@/lib/submissions";
import { buildClaim } from "@/lib/pipeline/testing/harness";
import { testDatabases } from "@/lib/testing/databases";
import { restoreDatabase } from "./backup";

type Snapshot = { claims: string[]; attachments: string[]; audit: string[]; events: number };

async function snapshot(database: Pick<Database, "query">): Promise<Snapshot> {
  const claims = await database.query<{ k: string }>("select id || '|' || kind || '|' || status || '|' || identifier_value || '|' || md5(claim::text) as k from submissions order by id");
  const attachments = await database.query<{ k: string }>("select id || '|' || file_name || '|' || md5(data) as k from attachments order by id");
  const auditRows = await database.query<{ k: string }>("select id::text || '|' || action || '|' || outcome as k from audit_events where action not like 'database.%' order by id");
  const [events] = await database.query<{ n: number }>("select count(*)::int as n from submission_events");
  return { claims: claims.map((r) => r.k), attachments: attachments.map((r) => r.k), audit: auditRows.map((r) => r.k), events: Number(events?.n ?? 0) };
}

/**
 * A portal on PGlite (its data directory held, its admin socket open) is backed up through the
 * socket while it runs; the file is restored into fresh databases, which must hold every claim,
 * attachment and audit entry, byte for byte.
 */
describe("backup and restore", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cx-backup-"));
  const file = path.join(dir, "backup.json.gz");
  let portal: Database;
  let socket: net.Server;
  let before: Snapshot;

  beforeAll(async () => {
    portal = await openDatabase({ kind: "pglite", dataDir: path.join(dir, "portal") });
    await runMigrations(portal);
    socket = await startAdminSocket(path.join(dir, "portal"), async () => portal.db);
    for (let i = 0; i < 30; i++) {
      const use = i % 3 === 0 ? "preauthorization" : "claim";
      await submit({ db: portal.db }, { kind: use, patientNationalId: "1000000001", claim: buildClaim({ use, items: [{ code: "36415", price: 15 + i }] }) });
    }
    for (let i = 0; i < 5; i++) {
      const stored = await storeAttachment(portal.db, { bytes: tinyPdf(`report ${i}`), fileName: `report-${i}.pdf`, uploadedBy: "backup-test" });
      expect(stored.ok, JSON.stringify(stored)).toBe(true);
    }
    for (let i = 0; i < 12; i++) await audit(portal.db, { actor: { kind: "system", name: "backup-test" }, action: `test.entry_${i}`, outcome: "success" });
    before = await snapshot(portal);
  }, 120_000);

  afterAll(async () => {
    socket?.close();
    await portal?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("backs up through the running portal's admin socket", async () => {
    expect(before.claims).toHaveLength(30);
    expect(before.attachments).toHaveLength(5);
    expect(before.audit.length).toBeGreaterThanOrEqual(12);
    const started = performance.now();
    const response = await sendAdminCommand(path.join(dir, "portal"), { command: "backup", flags: { out: [file] }, stdin: "" });
    expect(response.ok, JSON.stringify(response)).toBe(true);
    console.log(`[backup] ${fs.statSync(file).size} bytes in ${(performance.now() - started).toFixed(0)} ms while the portal held the database`);
  });

  describe.each(testDatabases())("restored into $name", (target) => {
    it("finds every claim, attachment, timeline and audit entry", async () => {
      const database = await target.open();
      try {
        const result = await restoreDatabase(database.db, file);
        expect(result.tables.submissions).toBe(30);
        expect(await snapshot(database)).toEqual(before);
        // Sequences moved past the restored ids: the next audit entry gets a new id.
        await audit(database.db, { actor: { kind: "system", name: "backup-test" }, action: "test.after_restore", outcome: "success" });
        // Restoring twice would mix installations: refused with a clear reason.
        await expect(restoreDatabase(database.db, file)).rejects.toThrow(/already holds data/);
      } finally {
        await database.dispose();
      }
    });
  });

  it("refuses a file that is not a backup, saying so", async () => {
    const bogus = path.join(dir, "bogus.gz");
    fs.writeFileSync(bogus, "not gzip");
    const database = await testDatabases()[0]!.open();
    try {
      await expect(restoreDatabase(database.db, bogus)).rejects.toThrow(/not a Clinic Exchange backup/);
    } finally {
      await database.dispose();
    }
  });

  const postgres = testDatabases().find((t) => t.name === "postgres");
  it.skipIf(!postgres)("migrate-to-postgres copies the running embedded installation into PostgreSQL", async () => {
    const target = await postgres!.open();
    try {
      const response = await sendAdminCommand(path.join(dir, "portal"), { command: "migrate-to-postgres", flags: { "database-url": [target.url!] }, stdin: "" });
      expect(response.ok, JSON.stringify(response)).toBe(true);
      expect(await snapshot(target)).toEqual(before);
    } finally {
      await target.dispose();
    }
  });
});
