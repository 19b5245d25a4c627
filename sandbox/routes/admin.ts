import type { Resource } from "@medplum/fhirtypes";
import { MAIL_RESOURCE_TYPES } from "../mailbox";
import type { IncomingMessage } from "node:http";
import { AnswerStylePatchSchema } from "../answer-style";
import type { SandboxContext } from "../context";
import { FaultPatchSchema } from "../faults";
import { ApiError, jsonReply, readBody, type Reply } from "../http";
import { RemittanceRequestSchema, originateRemittance } from "../remittances";
import { safeEqual } from "../oauth";
import { z } from "zod";
import { requestInformation } from "../information-requests";
import { AdvancedAuthorizationRequestSchema, AdvancedReissueSchema, DEMO_ADVANCED_AUTHORIZATION, advancedAuthorizations, originateAdvancedAuthorization, reissueAdvancedAuthorization } from "../advanced-authorizations";
import { ReissueRequestSchema, reissueDecision } from "../reissue";

const InformationRequestInputSchema = z
  .object({ text: z.string().max(2000).optional(), attachmentTypes: z.array(z.string().min(1).max(200)).max(10).optional(), dueInDays: z.number().int().min(-365).max(365).optional() })
  .strict();

/**
 * Sandbox administration (not part of the platform): fault injection and inspection for tests and
 * trainers. Same mTLS server; every call needs `X-Sandbox-Admin-Token`. Bodies are plain JSON.
 *
 *   GET    /_admin/faults                 current fault configuration
 *   PUT    /_admin/faults                 merge a partial configuration, returns the result
 *   DELETE /_admin/faults                 all faults off
 *   GET    /_admin/claims                 receipts per business identifier and stored claims
 *   POST   /_admin/claims/{id}/process    run the next step of a queued/pended claim now
 *   POST   /_admin/claims/{id}/request-information  the payer asks for information ({text, attachmentTypes, dueInDays})
 *   GET    /_admin/webhooks               webhook deliveries and their state
 *   GET    /_admin/answer-style           {style}: default | national (sandbox/answer-style.ts)
 *   PUT    /_admin/answer-style           {"style": "national"} switches the form of the answers
 *   DELETE /_admin/answer-style           back to the default form
 *   POST   /_admin/remittances            the payer pays claims: {"claims": [{"id": "<platform claim id>", "amount"?: 12.5, "earlyFee"?: 10,
 *                                         "exchangeFee"?: 0.95, "reverse"?: true}], "advance"?: 500, "paymentDate"?, "payerId"?,
 *                                         "style"?: "default" | "national"} — components, reversals and advances (decision 098)
 *                                         → 201 the PaymentReconciliation, delivered through the mailbox (sandbox/remittances.ts)
 *   GET    /_admin/payment-notices        the PaymentNotices the clinic sent (paid / cleared), in order
 *   POST   /_admin/advanced-authorizations the payer approves unasked: {"patient": "<national ID>", "items": [{system?, code, quantity?, unitPrice?}], validDays?, event?, reason?, style?}
 *                                         → 201 the ClaimResponse, delivered through the mailbox (sandbox/advanced-authorizations.ts)
 *   POST   /_admin/advanced-authorizations/demo   the demo one: a seeded chronic patient's follow-up ({event?, style?})
 *   GET    /_admin/advanced-authorizations        the ones sent, newest answer per preAuthRef
 *   POST   /_admin/advanced-authorizations/{preAuthRef}/reissue  {reason: correction|extension|cancel, items?, validDays?, style?}
 *   POST   /_admin/advanced-authorizations/{preAuthRef}/cancel   the payer cancels it (a reissue with reason cancel)
 *   GET    /_admin/conformance            the rule checker's verdict on every message received, as counts
 *                                         (sandbox/conformance-tally.ts); DELETE starts the count again
 */
export function isAdminPath(pathname: string): boolean {
  return pathname === "/_admin" || pathname.startsWith("/_admin/");
}

export function adminPattern(pathname: string): string {
  return pathname
    .replace(/^\/_admin\/claims\/[^/]+\/(process|request-information)$/, "/_admin/claims/:id/$1")
    .replace(/^\/_admin\/advanced-authorizations\/(?!demo$)[^/]+\/(reissue|cancel)$/, "/_admin/advanced-authorizations/:preAuthRef/$1");
}

export async function handleAdmin(req: IncomingMessage, url: URL, ctx: SandboxContext): Promise<Reply> {
  const token = req.headers["x-sandbox-admin-token"];
  if (typeof token !== "string" || !safeEqual(token, ctx.secrets.adminToken)) {
    req.resume();
    return jsonReply(401, { error: "unauthorized", message: "X-Sandbox-Admin-Token header is missing or wrong" });
  }
  const method = req.method ?? "GET";
  const path = url.pathname;

  if (path === "/_admin/faults") {
    if (method === "GET") return jsonReply(200, ctx.faults.get());
    if (method === "DELETE") return jsonReply(200, ctx.faults.reset());
    if (method === "PUT" || method === "PATCH") {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await readBody(req, 16 * 1024));
      } catch {
        return jsonReply(400, { error: "invalid_json", message: "body must be a JSON object" });
      }
      const result = FaultPatchSchema.safeParse(parsed);
      if (!result.success) {
        const issue = result.error.issues[0];
        return jsonReply(400, { error: "invalid_faults", message: `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}` });
      }
      const config = ctx.faults.update(result.data);
      ctx.logger.info(`faults updated: ${JSON.stringify(config)}`);
      return jsonReply(200, config);
    }
    return jsonReply(405, { error: "method_not_allowed" }, { Allow: "GET, PUT, PATCH, DELETE" });
  }

  if (path === "/_admin/answer-style") {
    if (method === "GET") return jsonReply(200, { style: ctx.answerStyle.get(), messaging: ctx.answerStyle.get("messaging") });
    if (method === "DELETE") {
      req.resume();
      return jsonReply(200, { style: ctx.answerStyle.reset(), messaging: ctx.answerStyle.get("messaging") });
    }
    if (method === "PUT") {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await readBody(req, 1024));
      } catch {
        return jsonReply(400, { error: "invalid_json", message: "body must be a JSON object" });
      }
      const result = AnswerStylePatchSchema.safeParse(parsed);
      if (!result.success) {
        return jsonReply(400, { error: "invalid_style", message: 'body must be {"style": "default"} or {"style": "national"}' });
      }
      const style = ctx.answerStyle.set(result.data.style);
      ctx.logger.info(`answer style: ${style}`);
      return jsonReply(200, { style });
    }
    req.resume();
    return jsonReply(405, { error: "method_not_allowed" }, { Allow: "GET, PUT, DELETE" });
  }

  if (path === "/_admin/conformance") {
    req.resume();
    if (method === "GET") return jsonReply(200, ctx.conformanceTally.report());
    if (method === "DELETE") {
      ctx.conformanceTally.reset();
      return jsonReply(200, ctx.conformanceTally.report());
    }
    return jsonReply(405, { error: "method_not_allowed" }, { Allow: "GET, DELETE" });
  }

  if (path === "/_admin/claims" && method === "GET") {
    const claims = ctx.store.allClaims().map((r) => ({
      id: r.id,
      use: r.use,
      status: r.status,
      identifier: JSON.parse(r.identifierKey)[2] as string,
      receivedAt: r.receivedAt,
      lastUpdated: r.lastUpdated,
      dueAt: r.dueAt === undefined ? null : new Date(r.dueAt).toISOString(),
      preAuthRef: r.preAuthRef ?? null,
    }));
    return jsonReply(200, { receipts: ctx.store.receiptCounts(), claims });
  }

  const process = /^\/_admin\/claims\/([^/]+)\/process$/.exec(path);
  if (process?.[1] && method === "POST") {
    req.resume();
    const id = process[1];
    const ran = ctx.engine.runNow(id);
    if (!ran) return jsonReply(409, { error: "not_pending", message: "no queued or pended claim with this id" });
    const record = ctx.store.getClaim(id);
    return jsonReply(200, { id: record?.id, status: record?.status });
  }

  // Decision 045: the payer asks for information about a claim (sandbox/information-requests.ts).
  const ask = /^\/_admin\/claims\/([^/]+)\/request-information$/.exec(path);
  if (ask?.[1] && method === "POST") {
    let parsed: unknown = {};
    try {
      const text = await readBody(req, 16 * 1024);
      parsed = text.trim() ? JSON.parse(text) : {};
    } catch {
      return jsonReply(400, { error: "invalid_json", message: "body must be a JSON object" });
    }
    const result = InformationRequestInputSchema.safeParse(parsed);
    if (!result.success) {
      const issue = result.error.issues[0];
      return jsonReply(400, { error: "invalid_request", message: `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}` });
    }
    const posted = requestInformation(ctx, ask[1], result.data);
    if (!posted) return jsonReply(404, { error: "not_found", message: "no claim with this id" });
    return jsonReply(201, { id: posted.id, resourceType: "CommunicationRequest", held: posted.held });
  }

  // Decision 097: the payer reissues a decided claim's or authorization's decision (sandbox/reissue.ts).
  const reissue = /^\/_admin\/claims\/([^/]+)\/reissue$/.exec(path);
  if (reissue?.[1] && method === "POST") {
    let parsed: unknown = {};
    try {
      const text = await readBody(req, 16 * 1024);
      parsed = text.trim() ? JSON.parse(text) : {};
    } catch {
      return jsonReply(400, { error: "invalid_json", message: "body must be a JSON object" });
    }
    const result = ReissueRequestSchema.safeParse(parsed);
    if (!result.success) {
      const issue = result.error.issues[0];
      return jsonReply(400, { error: "invalid_request", message: `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}` });
    }
    const done = reissueDecision(ctx, reissue[1], result.data);
    if (done === "not-found") return jsonReply(404, { error: "not_found", message: "no claim with this id" });
    if (done === "not-decided") return jsonReply(409, { error: "not_decided", message: "only a decided claim or authorization can be reissued" });
    return jsonReply(201, done);
  }

  // The mailbox (sandbox/mailbox.ts): post a resource the platform sends on its own initiative —
  // announced by webhook and handed out by polls. Areas with their own triggers build on it.
  if (path === "/_admin/mail") {
    if (method === "GET") return jsonReply(200, { mail: ctx.mailbox.forClinic(ctx.providerOrgId) });
    if (method !== "POST") {
      req.resume();
      return jsonReply(405, { error: "method_not_allowed" }, { Allow: "GET, POST" });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readBody(req, 256 * 1024));
    } catch {
      return jsonReply(400, { error: "invalid_json", message: "body must be a JSON object" });
    }
    const body = parsed as { event?: unknown; resource?: { resourceType?: unknown }; raw?: unknown } | null;
    // Decision 096: a whole message handed out as is by polls (messaging), e.g. a malformed one.
    if (body && typeof body.raw === "object" && body.raw !== null && !Array.isArray(body.raw)) {
      const item = ctx.mailbox.postRaw(ctx.providerOrgId, body.raw as Record<string, unknown>, typeof body.event === "string" ? body.event : "unknown");
      return jsonReply(201, { id: item.id, resourceType: "Bundle" });
    }
    const type = body?.resource?.resourceType;
    if (typeof body?.event !== "string" || typeof type !== "string" || !(MAIL_RESOURCE_TYPES as readonly string[]).includes(type)) {
      return jsonReply(400, { error: "invalid_mail", message: `body must be {"event": "<ksa message event>", "resource": {"resourceType": one of ${MAIL_RESOURCE_TYPES.join(", ")}, …}}` });
    }
    const item = ctx.mailbox.post(ctx.providerOrgId, body.resource as Resource, body.event);
    return jsonReply(201, { id: item.id, resourceType: item.resourceType });
  }

  if (path === "/_admin/facilities" && method === "GET") {
    return jsonReply(200, { facilities: ctx.facilities.report(ctx.reference.provider.license) });
  }

  // Remittances (sandbox/remittances.ts): the payer pays adjudicated claims, through the mailbox.
  if (path === "/_admin/remittances") {
    if (method !== "POST") {
      req.resume();
      return jsonReply(405, { error: "method_not_allowed" }, { Allow: "POST" });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readBody(req, 256 * 1024));
    } catch {
      return jsonReply(400, { error: "invalid_json", message: "body must be a JSON object" });
    }
    const result = RemittanceRequestSchema.safeParse(parsed);
    if (!result.success) {
      const issue = result.error.issues[0];
      return jsonReply(400, { error: "invalid_remittance", message: `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}` });
    }
    try {
      return jsonReply(201, originateRemittance(ctx, result.data));
    } catch (error) {
      if (error instanceof ApiError) return jsonReply(error.status, { error: "invalid_remittance", message: error.issues[0]?.diagnostics ?? "invalid" });
      throw error;
    }
  }
  // Advanced authorizations (sandbox/advanced-authorizations.ts): the payer approves unasked, reissues, cancels.
  if (path === "/_admin/advanced-authorizations" || path.startsWith("/_admin/advanced-authorizations/")) {
    if (path === "/_admin/advanced-authorizations" && method === "GET") {
      req.resume();
      return jsonReply(200, { advancedAuthorizations: advancedAuthorizations(ctx).map((a) => ({ preAuthRef: a.preAuthRef, event: a.event, answers: a.answers, id: a.response.id, identifier: a.response.identifier?.[0] ?? null, status: a.response.status, period: a.response.preAuthPeriod ?? null })) });
    }
    if (method !== "POST") {
      req.resume();
      return jsonReply(405, { error: "method_not_allowed" }, { Allow: path === "/_admin/advanced-authorizations" ? "GET, POST" : "POST" });
    }
    let parsed: unknown = {};
    try {
      const text = await readBody(req, 64 * 1024);
      parsed = text.trim() ? JSON.parse(text) : {};
    } catch {
      return jsonReply(400, { error: "invalid_json", message: "body must be a JSON object" });
    }
    const change = /^\/_admin\/advanced-authorizations\/([^/]+)\/(reissue|cancel)$/.exec(path);
    const schema = change ? AdvancedReissueSchema : path === "/_admin/advanced-authorizations/demo" ? AdvancedAuthorizationRequestSchema.pick({ event: true, style: true }).partial() : AdvancedAuthorizationRequestSchema;
    const result = schema.safeParse(parsed);
    if (!result.success) {
      const issue = result.error.issues[0];
      return jsonReply(400, { error: "invalid_advanced_authorization", message: `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}` });
    }
    try {
      const response = change
        ? reissueAdvancedAuthorization(ctx, decodeURIComponent(change[1]!), change[2] === "cancel" ? { ...(result.data as object), reason: "cancel" } : (result.data as object))
        : path === "/_admin/advanced-authorizations/demo"
          ? originateAdvancedAuthorization(ctx, { ...DEMO_ADVANCED_AUTHORIZATION, ...(result.data as object) })
          : path === "/_admin/advanced-authorizations"
            ? originateAdvancedAuthorization(ctx, result.data as z.input<typeof AdvancedAuthorizationRequestSchema>)
            : undefined;
      if (!response) return jsonReply(404, { error: "not_found" });
      return jsonReply(201, response);
    } catch (error) {
      if (error instanceof ApiError) return jsonReply(error.status, { error: "invalid_advanced_authorization", message: error.issues[0]?.diagnostics ?? "invalid" });
      throw error;
    }
  }

  if (path === "/_admin/payment-notices" && method === "GET") {
    return jsonReply(200, { notices: ctx.store.allPaymentNotices() });
  }

  if (path === "/_admin/webhooks" && method === "GET") {
    return jsonReply(200, {
      deliveries: ctx.store.allWebhooks().map((w) => ({
        ...w,
        nextAttemptAt: w.nextAttemptAt === undefined ? null : new Date(w.nextAttemptAt).toISOString(),
      })),
    });
  }

  req.resume();
  return jsonReply(404, { error: "not_found" });
}
