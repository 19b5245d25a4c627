import fs from "node:fs";
import path from "node:path";

/**
 * Server-action requests refused before Next.js' action handler (docs/decisions/061-refused-server-actions.md).
 * Next.js 16 answers an unknown action id 409/400 but prints the error with its stack, and a
 * body it cannot decode (broken JSON, a cut multipart form) becomes a 500 with a stack: both are
 * the client's doing, so proxy.ts answers them 4xx here and counts them as junk instead.
 */

/** Next.js' header for an action call, and the one its client router reads on a refusal. */
export const ACTION_HEADER = "next-action";
export const ACTION_NOT_FOUND_HEADER = "x-nextjs-action-not-found";

/** Next.js 16's action ids: 42 hex digits (an info byte and a 40-digit hash). */
const ACTION_ID = /^[0-9a-f]{42}$/;

/** Next.js' default `serverActions.bodySizeLimit` (1 MB): a larger body is a 500 inside Next.js. */
export const ACTION_BODY_LIMIT_BYTES = 1024 * 1024;

export interface ActionRefusal {
  status: 400 | 409 | 413;
  reason: "action_id" | "action_unknown" | "action_body" | "action_too_large";
  /** The junk kind counted for it (lib/http noteJunk). */
  junk: string;
}

let cached: { ids: Set<string> | undefined } | undefined;

/**
 * The ids of the build's server actions, read once from Next.js' server-reference manifest
 * (`.next/server/server-reference-manifest.json`). Undefined where there is no production build
 * (next dev, tests): then an unknown id is left to Next.js.
 */
export function knownActionIds(file = path.join(process.cwd(), ".next", "server", "server-reference-manifest.json")): Set<string> | undefined {
  if (cached) return cached.ids;
  let ids: Set<string> | undefined;
  try {
    const manifest = JSON.parse(fs.readFileSync(/*turbopackIgnore: true*/ file, "utf8")) as { node?: Record<string, unknown>; edge?: Record<string, unknown> };
    ids = new Set([...Object.keys(manifest.node ?? {}), ...Object.keys(manifest.edge ?? {})]);
  } catch {
    ids = undefined;
  }
  cached = { ids };
  return ids;
}

/** The whole body, or undefined as soon as `signal` aborts (the request's: the client went away). */
function bodyOf(request: Request, signal: AbortSignal | undefined): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (signal?.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal?.addEventListener("abort", onAbort, { once: true });
    request
      .arrayBuffer()
      .then((buffer) => resolve(new Uint8Array(buffer)), reject)
      .finally(() => signal?.removeEventListener("abort", onAbort));
  });
}

/** Whether a body Next.js will try to decode as an action: a fetch action, or a multipart form post to a page. */
export function isActionCandidate(method: string, headers: Headers): boolean {
  if (method.toUpperCase() !== "POST") return false;
  return headers.has(ACTION_HEADER) || /^multipart\/form-data/i.test(headers.get("content-type") ?? "");
}

/**
 * What is wrong with an action call, or undefined when Next.js may have it. `read` gives the body
 * (a clone: the route still receives the original).
 */
export async function actionRefusal(headers: Headers, read: () => Promise<Request>, ids: Set<string> | undefined, signal?: AbortSignal): Promise<ActionRefusal | undefined> {
  const id = headers.get(ACTION_HEADER);
  if (id !== null) {
    if (!ACTION_ID.test(id)) return { status: 400, reason: "action_id", junk: "ServerActionId" };
    if (ids && !ids.has(id)) return { status: 409, reason: "action_unknown", junk: "ServerActionUnknown" };
  }
  const type = headers.get("content-type") ?? "";
  const request = await read();
  const bytes = await bodyOf(request, signal);
  // The client hung up mid-body: Next.js' copy of the body would never end (docs/decisions/094).
  if (!bytes) return { status: 400, reason: "action_body", junk: "ClientAborted" };
  if (bytes.length > ACTION_BODY_LIMIT_BYTES) return { status: 413, reason: "action_too_large", junk: "ServerActionTooLarge" };
  try {
    if (/^multipart\/form-data/i.test(type)) {
      const form = await new Response(bytes, { headers: { "content-type": type } }).formData();
      // A fetch action's multipart body carries its argument list as JSON in field "0", and the
      // other chunks it refers to as fields named by their decimal id, sent before it.
      if (id !== null) {
        if (base64Part(bytes, type)) return { status: 400, reason: "action_body", junk: "ServerActionBody" };
        const parts = partsBeforeRoot(form);
        const root = parts?.get("0");
        if (typeof root !== "string" || !repliesResolve(JSON.parse(root), parts!)) return { status: 400, reason: "action_body", junk: "ServerActionBody" };
      }
    } else if (id !== null && !repliesResolve(JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)), undefined)) {
      return { status: 400, reason: "action_body", junk: "ServerActionBody" };
    }
  } catch {
    return { status: 400, reason: "action_body", junk: "ServerActionBody" };
  }
  return undefined;
}

/**
 * The parts of a fetch action's reply that its root may refer to: Next.js decodes a multipart reply
 * as it streams in (React's decodeReplyFromBusboy) and reads the root the moment field "0" arrives,
 * so only the parts sent before it exist then (React's client sends them first). Undefined when a
 * numbered part is sent twice, which React's client never does.
 */
function partsBeforeRoot(form: FormData): Map<string, FormDataEntryValue> | undefined {
  const parts = new Map<string, FormDataEntryValue>();
  for (const [name, value] of form) {
    if (parts.has(name) && /^\d+$/.test(name)) return undefined;
    parts.set(name, value);
    if (name === "0") break;
  }
  return parts;
}

/** Whether a part of the body declares base64 transfer encoding, which React's decoder refuses with an error. */
function base64Part(bytes: Uint8Array, type: string): boolean {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  const marker = boundary?.[1] ?? boundary?.[2];
  if (!marker) return false;
  const text = new TextDecoder("latin1").decode(bytes);
  return text
    .split(`--${marker}`)
    .some((part) => /(^|\r\n)content-transfer-encoding[ \t]*:[ \t]*base64/i.test(part.slice(0, Math.max(0, part.indexOf("\r\n\r\n")))));
}

/**
 * A fetch action's body is React's encodeReply of the argument list: a JSON array in which a string
 * starting with `$` is either self-contained (an escaped `$$…`, `$undefined`, `$NaN`, `$Infinity`,
 * `$-0`, a date `$D…`, a temporary reference `$T…`, a BigInt `$n…` of at most 300 digits) or refers
 * to another part of a multipart body: a FormData argument `$K<id>` (its fields, possibly none),
 * a model chunk (`$<hex>`, `$@`, `$Q`, `$W`, `$h`, `$i` + hex, optionally `:path`) that must be a
 * JSON field named by the decimal id, or binary data (`$B`, typed arrays) that must be a file part —
 * each sent before the root (`partsBeforeRoot`).
 * React fails on anything else with an error that Next.js turns into a 500 ("Connection closed.",
 * "Referenced Blob is not a Blob.", "BigInt is too large" …) — only a forged body has one, so it is
 * refused here. A text body has no other parts: only the self-contained forms can be in it.
 */
const SELF_CONTAINED = /^\$(?:\$|undefined$|NaN$|Infinity$|-Infinity$|-0$|D|T)/;
const BIGINT = /^\$n-?\d{1,300}$/;
const FORM_DATA = /^\$K[0-9a-f]*$/;
const MODEL_CHUNK = /^\$[@QWhi]?(?<id>[0-9a-f]+)(?<path>(?::[^:]+)*)$/;
const BINARY_CHUNK = /^\$[AOoUSsLlGgMmVB](?<id>[0-9a-f]+)$/;

function repliesResolve(root: unknown, form: ReadonlyMap<string, FormDataEntryValue> | undefined): boolean {
  if (!Array.isArray(root)) return false;
  const parsed = new Map<string, unknown>();
  const stack: unknown[] = [root];
  const chunk = (hex: string): unknown => {
    const name = String(parseInt(hex, 16));
    if (parsed.has(name)) return parsed.get(name);
    const field = form?.get(name);
    if (typeof field !== "string") throw new Error("missing chunk");
    const value: unknown = JSON.parse(field);
    parsed.set(name, value);
    stack.push(value);
    return value;
  };
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === "string") {
      if (!value.startsWith("$") || SELF_CONTAINED.test(value) || BIGINT.test(value)) continue;
      if (form && FORM_DATA.test(value)) continue;
      const binary = BINARY_CHUNK.exec(value)?.groups;
      if (binary) {
        if (!(form?.get(String(parseInt(binary.id!, 16))) instanceof Blob)) return false;
        continue;
      }
      const model = MODEL_CHUNK.exec(value)?.groups;
      if (!model) return false;
      try {
        let target = chunk(model.id!);
        for (const step of (model.path ?? "").split(":").slice(1)) {
          if (!target || typeof target !== "object" || !Object.hasOwn(target, step)) return false;
          target = (target as Record<string, unknown>)[step];
        }
      } catch {
        return false;
      }
    } else if (Array.isArray(value)) {
      stack.push(...value);
    } else if (value && typeof value === "object") {
      stack.push(...Object.values(value));
    }
  }
  return true;
}

/** Test seam: forget the cached manifest. */
export function resetKnownActionIds(): void {
  cached = undefined;
}
