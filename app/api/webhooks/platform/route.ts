import { getDb } from "@/lib/db";
import { env } from "@/lib/env";
import { pipelineConfig, handlePlatformWebhook } from "@/lib/pipeline";
import { getPlatformClient, type PlatformClient } from "@/lib/platform";
import { guarded } from "@/lib/http";
import { lineWriter } from "@/lib/log";
import { INBOUND_HANDLERS } from "@/lib/server";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** `claim.status.changed` and `resource.available` from the platform: signature, dedupe and apply live in lib/pipeline/webhooks.ts. */
export const POST = guarded("json", "webhooks", async (request: Request): Promise<Response> => {
  let client: PlatformClient;
  try {
    client = await getPlatformClient();
  } catch {
    // Not configured yet: a non-2xx makes the platform deliver again later.
    return new Response(JSON.stringify({ error: "platform_not_configured" }), { status: 503, headers: { "content-type": "application/json" } });
  }
  const config = pipelineConfig();
  return handlePlatformWebhook(request, {
    db: await getDb(),
    client,
    secret: env().WEBHOOK_SECRET,
    pollAfterMs: config.pollAfterMs,
    fetchTimeoutMs: config.webhookFetchTimeoutMs,
    log: lineWriter("warn"),
    inbound: INBOUND_HANDLERS,
  });
});
