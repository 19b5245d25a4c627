import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/lib/auth";
import { submissions } from "@/lib/db/schema";
import { startPipeline } from "@/lib/pipeline";
import { submit } from "@/lib/submissions";
import { buildClaim, startTestSandbox, tempDir, waitFor, type SandboxHandle } from "@/lib/pipeline/testing/harness";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { createPlatformClient, describeFacilities, facilityConfig, portFor, testConnection, type PlatformClient, type PlatformConfig } from "@/lib/platform";
import { testDatabases } from "@/lib/testing/databases";
import { ensureFacility } from "@/sandbox";
import { addFacility, assignUserFacility, FacilityInputError, getFacility, setFacilityActive, type Facility } from "./index";

/**
 * Decision 049: facilities with their own certificates and licences. Against the sandbox over
 * real mutual TLS, in both protocols: a facility's claim goes out with the facility's certificate
 * (the sandbox counts requests per certificate's licence and kind) and none over the main one, its
 * messages carry its licence as sender, and its late answers come back by poll (the exchange queues
 * them per clinic, so whichever facility polls first may fetch them).
 */
const DECIDED = ["complete", "partial", "denied"];

describe.each(testDatabases())("facilities on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let sb: SandboxHandle;
  let north: Facility;
  const clients: PlatformClient[] = [];

  beforeAll(async () => {
    database = await target.open();
    await seedDemoPatients(database.db);
    sb = await startTestSandbox({ adjudicationDelayMs: 50 });
    const issued = await ensureFacility(sb.dataDir, "north", "PR-CLINIC-002");
    north = await addFacility(database.db, { code: "north", nameEn: "North Branch", nameAr: "فرع الشمال", providerLicense: "PR-CLINIC-002", certFile: issued.cert, keyFile: issued.key });
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await sb?.close();
    await database?.dispose();
  });

  /** Requests the sandbox took over each certificate, by kind (REST route name or message event). */
  const facilityRequests = async () => {
    const { body } = await sb.admin("GET", "/_admin/facilities");
    return new Map((body.facilities as { code: string; byKind: Record<string, number> }[]).map((f) => [f.code, f.byKind]));
  };
  const grown = (before: Map<string, Record<string, number>>, after: Map<string, Record<string, number>>, code: string, kind: string) => (after.get(code)?.[kind] ?? 0) - (before.get(code)?.[kind] ?? 0);

  function ports(protocol: "rest" | "messaging") {
    const main: PlatformConfig = { ...sb.config, protocol, providerLicense: "PR-CLINIC-001" };
    const mainClient = createPlatformClient(main, { db: database.db, tlsCheckIntervalMs: 60_000 });
    const northClient = createPlatformClient(facilityConfig(main, north), { db: database.db, tlsCheckIntervalMs: 60_000 });
    clients.push(mainClient, northClient);
    return { main: portFor(mainClient, database.db), north: portFor(northClient, database.db), northClient };
  }

  it("refuses a facility it could not connect with, saying what to fix", async () => {
    const dir = tempDir("cx-facility-");
    try {
      const other = await ensureFacility(sb.dataDir, "south", "PR-CLINIC-003");
      const base = { code: "south", nameEn: "South", nameAr: "الجنوب", providerLicense: "PR-CLINIC-003", certFile: other.cert, keyFile: other.key };
      const refusal = async (input: typeof base) => {
        try {
          await addFacility(database.db, input);
        } catch (error) {
          expect(error).toBeInstanceOf(FacilityInputError);
          return (error as FacilityInputError).message;
        }
        throw new Error("accepted");
      };
      expect(await refusal({ ...base, code: "Main" })).toMatch(/lower-case/);
      expect(await refusal({ ...base, certFile: path.join(dir, "missing.pem") })).toMatch(/does not exist or cannot be read/);
      expect(await refusal({ ...base, keyFile: north.keyFile! })).toMatch(/is not the private key of/);
      fs.writeFileSync(path.join(dir, "junk.pem"), "not a certificate");
      expect(await refusal({ ...base, certFile: path.join(dir, "junk.pem") })).toMatch(/not a PEM certificate/);
      expect(await refusal({ ...base, providerLicense: "pr-clinic-002" })).toMatch(/already has this code or licence/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(["rest", "messaging"] as const)("%s: a facility's claims go out with its own certificate and licence, and come back decided", async (protocol) => {
    const { main, north: northPort } = ports(protocol);
    const user = await createUser(database.db, { email: `north-${protocol}@clinic.test`, roles: ["billing"], password: "a long enough password 1", name: "North billing" });
    await assignUserFacility(database.db, user.email, "north");
    const before = await facilityRequests();
    const services = startPipeline({
      db: database.db,
      client: main,
      clientFor: async (id) => {
        expect(id).toBe(north.id);
        return northPort;
      },
      facilityPorts: async () => [northPort],
      config: { pollMs: 25, leaseMs: 10_000, pollAfterMs: 2_000, messagePollMs: 100 },
      log: () => {},
    });
    try {
      // createdBy a user of the facility: the submission records the facility without being told.
      const claim = await submit({ db: database.db }, { kind: "claim", patientNationalId: "1000000001", createdBy: user.id, claim: buildClaim({ use: "claim", items: [{ code: "85025", price: 60 }] }) });
      const auth = await submit({ db: database.db }, { kind: "preauthorization", patientNationalId: "1000000002", facilityId: north.id, claim: buildClaim({ use: "preauthorization", patientId: "1000000002", items: [{ code: "70553", price: 2500 }] }) });
      expect(claim.facilityId).toBe(north.id);
      for (const id of [claim.id, auth.id]) {
        await waitFor(async () => {
          const [row] = await database.db.select().from(submissions).where(eq(submissions.id, id));
          return row && DECIDED.includes(row.status) ? row : undefined;
        }, 30_000, `submission ${id} decided`);
      }
      const after = await facilityRequests();
      // Both went out over north's certificate, none over the main one (which, in messaging, only polled).
      const sends = protocol === "rest" ? ["claim-create"] : ["claim-request", "priorauth-request"];
      expect(sends.reduce((n, kind) => n + grown(before, after, "north", kind), 0)).toBeGreaterThanOrEqual(2);
      for (const kind of [...sends, "batch-request"]) expect(grown(before, after, "main", kind), `main ${kind}`).toBe(0);
    } finally {
      await services.stop(1000);
    }
  }, 90_000);

  it("messaging: the exchange refuses a facility's certificate with another facility's licence", async () => {
    const main: PlatformConfig = { ...sb.config, protocol: "messaging", providerLicense: "PR-CLINIC-001" };
    const wrong = createPlatformClient({ ...facilityConfig(main, north), providerLicense: "PR-CLINIC-001" }, { db: database.db, tlsCheckIntervalMs: 60_000 });
    clients.push(wrong);
    const port = portFor(wrong, database.db);
    await expect(port.pollMessages!()).rejects.toMatchObject({ field: "MessageHeader.sender.identifier" });
  });

  it("Settings facts and Test connection per facility; a deactivated facility is refused", async () => {
    const facts = await describeFacilities(database.db, { config: sb.config });
    const northFacts = facts.find((f) => f.code === "north");
    expect(facts[0]).toMatchObject({ id: null, code: "main" });
    expect(northFacts).toMatchObject({ id: north.id, providerLicense: "PR-CLINIC-002", active: true, ownOAuthClient: false });
    expect("notAfter" in northFacts!.certificate && northFacts!.certificate.daysLeft).toBeGreaterThan(300);
    const steps = await testConnection({ db: database.db, config: sb.config, facilityId: north.id });
    expect(steps.map((s) => [s.step, s.ok])).toEqual([
      ["tls", true],
      ["token", true],
      ["status", true],
    ]);
    await setFacilityActive(database.db, "north", false);
    try {
      const refused = await testConnection({ db: database.db, config: sb.config, facilityId: north.id });
      expect(refused).toMatchObject([{ step: "tls", ok: false }]);
      expect(refused[0]!.detail).toMatch(/not active/);
      expect(() => facilityConfig(sb.config, { ...(north as Facility), active: false })).toThrow(/not active/);
      expect((await getFacility(database.db, north.id!))?.active).toBe(false);
    } finally {
      await setFacilityActive(database.db, "north", true);
    }
  });
});
