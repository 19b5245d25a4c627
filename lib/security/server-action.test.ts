import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { afterEach, describe, expect, it } from "vitest";
import { actionRefusal, isActionCandidate, knownActionIds, resetKnownActionIds } from "./server-action";

const ID = `40${"a".repeat(40)}`;
const h = (values: Record<string, string>) => new Headers(values);
const body = (text: string, type = "text/plain;charset=UTF-8") => async () => new Request("http://portal.test/x", { method: "POST", headers: { "content-type": type }, body: text });

describe("server actions refused before Next.js", () => {
  afterEach(resetKnownActionIds);

  it("knows which requests Next.js would decode as an action", () => {
    expect(isActionCandidate("POST", h({ "next-action": ID }))).toBe(true);
    expect(isActionCandidate("POST", h({ "content-type": "multipart/form-data; boundary=x" }))).toBe(true);
    expect(isActionCandidate("POST", h({ "content-type": "application/x-www-form-urlencoded" }))).toBe(false);
    expect(isActionCandidate("GET", h({ "next-action": ID }))).toBe(false);
  });

  it("reads the build's action ids, and none without a build", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cx-actions-"));
    const file = path.join(dir, "manifest.json");
    fs.writeFileSync(file, JSON.stringify({ node: { [ID]: {} }, edge: {} }));
    expect(knownActionIds(file)).toEqual(new Set([ID]));
    resetKnownActionIds();
    expect(knownActionIds(path.join(dir, "missing.json"))).toBeUndefined();
  });

  it("answers a malformed id 400, an unknown one 409, a broken body 400 — and lets a good call through", async () => {
    const ids = new Set([ID]);
    expect(await actionRefusal(h({ "next-action": "x" }), body("[]"), ids)).toMatchObject({ status: 400, reason: "action_id" });
    expect(await actionRefusal(h({ "next-action": `7f${"b".repeat(40)}` }), body("[]"), ids)).toMatchObject({ status: 409, reason: "action_unknown" });
    expect(await actionRefusal(h({ "next-action": `7f${"b".repeat(40)}` }), body("[]"), undefined)).toBeUndefined();
    expect(await actionRefusal(h({ "next-action": ID }), body('["$Q9999",{'), ids)).toMatchObject({ status: 400, reason: "action_body" });
    const multipart = "multipart/form-data; boundary=zz";
    expect(await actionRefusal(h({ "next-action": ID, "content-type": multipart }), body("--zz\r\nbroken", multipart), ids)).toMatchObject({ reason: "action_body" });
    expect(await actionRefusal(h({ "content-type": multipart }), body("--zz\r\nbroken", multipart), ids)).toMatchObject({ reason: "action_body" });
    expect(await actionRefusal(h({ "next-action": ID }), body('["en"]'), ids)).toBeUndefined();
    // A text body is one chunk: a reference to another one is forged; the self-contained forms pass.
    for (const forged of ['["$Q9999"]', '"$@x"', '{"$":1}', '[{"a":["$@1"]}]', '["$K1"]', '["$h1"]']) {
      expect(await actionRefusal(h({ "next-action": ID }), body(forged), ids), forged).toMatchObject({ status: 400, reason: "action_body" });
    }
    expect(await actionRefusal(h({ "next-action": ID }), body('["$$5", "$undefined", "$D2026-11-25T00:00:00.000Z", "$n12", "$-0", {"x": "$NaN"}]'), ids)).toBeUndefined();
    expect(await actionRefusal(h({ "next-action": ID }), body(`["${"a".repeat(1024 * 1024)}"]`), ids)).toMatchObject({ status: 413, reason: "action_too_large" });
    const good = '--zz\r\nContent-Disposition: form-data; name="1_x"\r\n\r\nv\r\n--zz--\r\n';
    expect(await actionRefusal(h({ "next-action": ID, "content-type": multipart }), body(good, multipart), ids)).toMatchObject({ reason: "action_body" });
    const root = '--zz\r\nContent-Disposition: form-data; name="0"\r\n\r\n["$K1"]\r\n--zz\r\nContent-Disposition: form-data; name="1_x"\r\n\r\nv\r\n--zz--\r\n';
    expect(await actionRefusal(h({ "next-action": ID, "content-type": multipart }), body(root, multipart), ids)).toBeUndefined();
    const brokenRoot = '--zz\r\nContent-Disposition: form-data; name="0"\r\n\r\n{bad\r\n--zz--\r\n';
    expect(await actionRefusal(h({ "next-action": ID, "content-type": multipart }), body(brokenRoot, multipart), ids)).toMatchObject({ reason: "action_body" });
    // Every part a multipart reply refers to must be there, as React reads it (the cases below, and
    // React's own verdict on each in the next test). A FormData argument may be empty.
    for (const { name, fields, refused } of REPLIES) {
      const verdict = await actionRefusal(h({ "next-action": ID, "content-type": multipart }), body(multipartOf(fields), multipart), ids);
      if (refused) expect(verdict, name).toMatchObject({ status: 400, reason: "action_body" });
      else expect(verdict, name).toBeUndefined();
    }
    // A form post without an action header (progressive enhancement) only has to be a form.
    expect(await actionRefusal(h({ "content-type": multipart }), body(good, multipart), ids)).toBeUndefined();
  });

  it("stops waiting for a body when the client goes away (its copy would never end)", async () => {
    const never = async () => new Request("http://portal.test/x", { method: "POST", body: new ReadableStream({ start() {} }), duplex: "half" } as RequestInit);
    const gone = new AbortController();
    const verdict = actionRefusal(h({ "next-action": ID }), never, new Set([ID]), gone.signal);
    setTimeout(() => gone.abort(), 20);
    expect(await verdict).toMatchObject({ status: 400, reason: "action_body", junk: "ClientAborted" });
  });

  it("refuses exactly the replies React's decoder fails on (the 500s of Next.js)", () => {
    // Next.js decodes a multipart fetch-action reply with React's decodeReplyFromBusboy as it
    // streams in; that decoder runs only under the react-server condition: ask a child process.
    const requireHere = createRequire(import.meta.url);
    const decoder = requireHere.resolve("next/dist/compiled/react-server-dom-webpack/cjs/react-server-dom-webpack-server.node.production.js");
    const busboy = requireHere.resolve("next/dist/compiled/busboy");
    const script = `
      const { decodeReplyFromBusboy, createTemporaryReferenceSet } = require(${JSON.stringify(decoder)});
      const busboy = require(${JSON.stringify(busboy)});
      const bodies = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
      const decode = (body) => new Promise((resolve) => {
        const stream = busboy({ defParamCharset: "utf8", headers: { "content-type": "multipart/form-data; boundary=zz" } });
        stream.on("error", () => resolve(false));
        stream.on("file", (_name, file) => file.on("error", () => resolve(false)).resume());
        const timer = setTimeout(() => resolve(false), 2000);
        timer.unref();
        decodeReplyFromBusboy(stream, {}, { temporaryReferences: createTemporaryReferenceSet() }).then(() => resolve(true), () => resolve(false));
        try { stream.end(Buffer.from(body, "utf8")); } catch { resolve(false); }
      });
      Promise.all(bodies.map(decode)).then((ok) => process.stdout.write(JSON.stringify(ok)));`;
    const out = execFileSync(process.execPath, ["--conditions", "react-server", "-e", script], { input: JSON.stringify(REPLIES.map((r) => multipartOf(r.fields))), encoding: "utf8" });
    const decoded = JSON.parse(out) as boolean[];
    expect(REPLIES.map((r, i) => ({ name: r.name, reactFails: !decoded[i] }))).toEqual(REPLIES.map((r) => ({ name: r.name, reactFails: r.refused })));
  });
});

type Field = readonly [name: string, value: string, file?: string, header?: string];
const multipartOf = (fields: readonly Field[]) =>
  fields
    .map(([name, value, file, header]) => `--zz\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file}"\r\nContent-Type: application/octet-stream` : ""}${header ? `\r\n${header}` : ""}\r\n\r\n${value}\r\n`)
    .join("") + "--zz--\r\n";

/** Multipart fetch-action replies: which ones the refusal rule lets through (all must decode in React). */
const REPLIES: { name: string; fields: Field[]; refused: boolean }[] = [
  { name: "a missing model chunk", fields: [["0", '["$Q1"]']], refused: true },
  { name: "a missing plain chunk", fields: [["0", '[{"a":"$1"}]']], refused: true },
  { name: "a missing server reference", fields: [["0", '["$h1"]']], refused: true },
  { name: "a chunk sent after the root", fields: [["0", '["$Q1"]'], ["1", '[["a",1]]']], refused: true },
  { name: "a chunk that is not JSON", fields: [["1", "{bad"], ["0", '["$1"]']], refused: true },
  { name: "a chunk referring onwards to nothing", fields: [["1", '["$Q2"]'], ["0", '["$1"]']], refused: true },
  { name: "a chunk referring onwards to a part after the root", fields: [["1", '["$Q2"]'], ["0", '["$1"]'], ["2", "[]"]], refused: true },
  { name: "a path into nothing", fields: [["1", '{"a":{}}'], ["0", '["$1:a:b"]']], refused: true },
  { name: "a missing blob", fields: [["0", '["$B1"]']], refused: true },
  { name: "a blob that is text", fields: [["1", "text"], ["0", '["$B1"]']], refused: true },
  { name: "a blob sent after the root", fields: [["0", '["$B1"]'], ["1", "bytes", "b.bin"]], refused: true },
  { name: "a typed array without its bytes", fields: [["0", '["$A1"]']], refused: true },
  { name: "a BigInt over 300 digits", fields: [["0", `["$n${"9".repeat(301)}"]`]], refused: true },
  { name: "a BigInt that is no number", fields: [["0", '["$nabc"]']], refused: true },
  { name: "a file part in base64", fields: [["1", "Ynl0ZXM=", "b.bin", "Content-Transfer-Encoding: base64"], ["0", '["$B1"]']], refused: true },
  { name: "an unknown tag", fields: [["0", '["$z1"]']], refused: true },
  { name: "a bare dollar", fields: [["0", '["$"]']], refused: true },
  { name: "an empty FormData argument", fields: [["0", '["$K1"]']], refused: false },
  { name: "a FormData argument as React names it", fields: [["_1_locale", "ar"], ["_1_next", "/claims"], ["0", '["$K1","en"]']], refused: false },
  { name: "a FormData argument whose fields come after the root", fields: [["0", '["$K1"]'], ["_1_locale", "ar"]], refused: false },
  { name: "a map whose chunk is sent first", fields: [["1", '[["a",1]]'], ["0", '["$Q1"]']], refused: false },
  { name: "a chunk with a path that resolves", fields: [["1", '{"a":{"b":2}}'], ["0", '["$1:a"]']], refused: false },
  { name: "a chunk referring to another", fields: [["2", '["$$5"]'], ["1", '{"x":"$2"}'], ["0", '["$1"]']], refused: false },
  { name: "a blob that is a file part sent first", fields: [["1", "bytes", "b.bin"], ["0", '["$B1"]']], refused: false },
  { name: "a BigInt of 300 digits", fields: [["0", `["$n${"9".repeat(300)}"]`]], refused: false },
  { name: "self-contained values", fields: [["0", '["$$5","$undefined","$D2026-11-25T00:00:00.000Z","$n12","$-0",{"x":"$NaN"}]']], refused: false },
];
