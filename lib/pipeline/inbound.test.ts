import { describe, expect, it } from "vitest";
import { testDatabases } from "@/lib/testing/databases";
import { createPlatformClient, portFor } from "@/lib/platform";
import { startPipeline } from "./index";
import { PIPELINE_INBOUND, routeInbound, type InboundContext, type InboundHandler, type InboundHandlers } from "./inbound";
import { newWebhookSecret, startTestSandbox, startWebhookRelay, testClient, waitFor, type RelayDeps } from "./testing/harness";

describe.each(testDatabases())("inbound routing on $name", (target) => {
  it("sends each resource type to its handler; an unknown type or an unknown claim is unrouted", async () => {
    const database = await target.open();
    try {
      const lines: string[] = [];
      const context: InboundContext = { db: database.db, clock: () => new Date(), pollAfterMs: 60_000, log: (l) => lines.push(l), source: "poll", event: "communication-request" };
      const seen: unknown[] = [];
      const handler: InboundHandler = async (_context, resource) => {
        seen.push(resource.id);
        return "applied";
      };
      const handlers = { ...PIPELINE_INBOUND, CommunicationRequest: handler };

      expect(await routeInbound(handlers, context, { resourceType: "CommunicationRequest", id: "cr-1", status: "active" })).toBe("applied");
      expect(seen).toEqual(["cr-1"]);
      expect(await routeInbound(handlers, context, { resourceType: "Basic", id: "b" })).toBe("unrouted");
      expect(await routeInbound(handlers, context, { resourceType: 42 })).toBe("unrouted");
      const response = { resourceType: "ClaimResponse", status: "active", outcome: "complete", request: { reference: "Claim/not-ours" } };
      expect(await routeInbound(handlers, context, response)).toBe("unrouted");
      // Log lines name types and events, never content.
      expect(lines.join("\n")).not.toContain("not-ours");
    } finally {
      await database.dispose();
    }
  });
});

describe.each(testDatabases())("what the platform sends on its own, in both protocols, on $name", (target) => {
  const request = (id: string) => ({
    resourceType: "CommunicationRequest",
    id,
    status: "active",
    about: [{ reference: "Claim/some-claim" }],
    payload: [{ contentString: "Please send the operative report" }],
  });

  it("REST: a resource.available webhook is read back (GET /{type}/{id}) and routed; other types are refused", async () => {
    const database = await target.open();
    const secret = newWebhookSecret();
    const got: string[] = [];
    const inbound: InboundHandlers = {
      CommunicationRequest: async (context, resource) => {
        expect(context.source).toBe("webhook");
        got.push(String(resource.id));
        return "applied";
      },
    };
    const relayDeps: RelayDeps = { db: database.db, secret, pollAfterMs: 60_000, inbound };
    const relay = await startWebhookRelay(relayDeps);
    const sb = await startTestSandbox({ webhookUrl: relay.url, webhookSecret: secret });
    const client = testClient(database.db, sb.config);
    relayDeps.client = client;
    try {
      const posted = await sb.admin("POST", "/_admin/mail", { event: "communication-request", resource: request("cr-rest") });
      expect(posted.status).toBe(201);
      await waitFor(async () => got.includes("cr-rest"), 10_000, "routed CommunicationRequest");
      const read = await client.readResource("CommunicationRequest", "cr-rest");
      expect(read.data).toMatchObject({ resourceType: "CommunicationRequest", id: "cr-rest" });
      const hooks = await sb.admin("GET", "/_admin/webhooks");
      const mine = (hooks.body.deliveries as { claimId: string; state: string }[]).filter((d) => d.claimId === "CommunicationRequest/cr-rest");
      expect(mine).toMatchObject([{ state: "delivered" }]);
      expect((await sb.admin("POST", "/_admin/mail", { event: "x", resource: { resourceType: "Patient" } })).status).toBe(400);
    } finally {
      await client.close();
      await sb.close();
      await relay.close();
      await database.dispose();
    }
  });

  it("messaging: a poll hands each mailbox resource out once, as its event, to the handler", async () => {
    const database = await target.open();
    const sb = await startTestSandbox();
    const client = createPlatformClient({ ...sb.config, protocol: "messaging", providerLicense: "PR-CLINIC-001" }, { db: database.db, tlsCheckIntervalMs: 60_000 });
    const port = portFor(client, database.db);
    const got: { id: unknown; event?: string }[] = [];
    const services = startPipeline({
      db: database.db,
      client: port,
      config: { pollMs: 50, messagePollMs: 60_000 },
      log: () => {},
      inbound: {
        CommunicationRequest: async (context, resource) => {
          got.push({ id: resource.id, ...(context.event ? { event: context.event } : {}) });
          return "applied";
        },
      },
    });
    try {
      for (const id of ["cr-m1", "cr-m2"]) expect((await sb.admin("POST", "/_admin/mail", { event: "communication-request", resource: request(id) })).status).toBe(201);
      const stats = await services.messagePoller!.drained();
      expect(got).toEqual([
        { id: "cr-m1", event: "communication-request" },
        { id: "cr-m2", event: "communication-request" },
      ]);
      expect(stats.applied).toBeGreaterThanOrEqual(2);
      await services.messagePoller!.drained();
      expect(got).toHaveLength(2);
    } finally {
      await services.stop(1000);
      await client.close();
      await sb.close();
      await database.dispose();
    }
  });
});
