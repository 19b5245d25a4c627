import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { BrowserContext } from "@playwright/test";
import { E2E_SERVER_LOG } from "../playwright.config";
import { HOSTILE_REDIRECTS } from "./hostile-redirects";
import { BASE_URL, DEMO, DEMO_PASSWORD, PORT, createPatient, expect, signInRequest, test } from "./fixtures";

/*
 * The last open edges (docs/decisions/094), in a real Chromium and over real HTTP:
 *  - hostile redirect targets after sign-in: wherever they point, the browser stays on the portal;
 *  - one edge for every path: `POST /patients/x.png` with a server action id and no Origin is refused;
 *  - the origin rule compares with PORTAL_URL, not the request's Host (the forged-Host upload);
 *  - no stack or uncaughtException in the server's log from any of it (client aborts included).
 */


const enc = (s: string) => encodeURIComponent(s);

/** Everything off the portal answers a marker page, so where the browser lands is observable (no DNS needed). */
async function fenceOffSite(context: BrowserContext): Promise<string[]> {
  const offSite: string[] = [];
  await context.route(
    (url) => url.origin !== BASE_URL,
    (route) => {
      offSite.push(route.request().url());
      return route.fulfill({ status: 200, contentType: "text/html", body: "<title>evil</title>off-site" });
    },
  );
  return offSite;
}

test.describe("hostile redirect targets after sign-in (Chromium)", () => {
  // One navigation (and, in the form test, one sign-in) per hostile value.
  test.describe.configure({ timeout: 400_000 });
  test("a signed-in visitor sent to /sign-in?callbackUrl=… stays on the portal for every hostile value", async ({ browser }) => {
    const context = await browser.newContext({ baseURL: BASE_URL });
    const offSite = await fenceOffSite(context);
    const api = await signInRequest(DEMO.frontDesk);
    await context.addCookies((await api.storageState()).cookies);
    await api.dispose();
    const page = await context.newPage();
    const landings: string[] = [];
    for (const value of HOSTILE_REDIRECTS) {
      const response = await page.goto(`/sign-in?callbackUrl=${enc(value)}`);
      landings.push(`${JSON.stringify(value)} → ${response?.status()} ${page.url()}`);
      expect.soft(new URL(page.url()).origin, JSON.stringify(value)).toBe(BASE_URL);
      // Each is refused: the safe default (home, then the front desk's first area).
      expect.soft(page.url(), JSON.stringify(value)).toBe(`${BASE_URL}/patients`);
      expect.soft(response?.status() ?? 0, JSON.stringify(value)).toBeLessThan(500);
    }
    console.log(`[edge] signed in, GET /sign-in?callbackUrl=…:\n${landings.join("\n")}`);
    expect(offSite).toEqual([]);
    await context.close();
  });

  test("signing in through the form with a hostile callbackUrl lands on the portal", async ({ browser }) => {
    const landings: string[] = [];
    const offSiteAll: string[] = [];
    // The form posts its callbackUrl to the sign-in action, which redirects after success. One
    // sign-in each (slow): a sample of the kinds; every value goes through the same rule above.
    for (const value of ["/\t/evil.example", "/.//evil.example", "/\\evil.example", "//evil.example", "/\r\n/evil.example", "/%2F/evil.example", "/..//evil.example", "https://evil.example/"]) {
      const context = await browser.newContext({ baseURL: BASE_URL });
      offSiteAll.push(...(await fenceOffSite(context)));
      const page = await context.newPage();
      await page.goto(`/sign-in?callbackUrl=${enc(value)}`);
      await page.getByLabel(/work email|البريد الإلكتروني/i).fill(DEMO.frontDesk);
      await page.getByLabel(/^password$|كلمة المرور/i).fill(DEMO_PASSWORD);
      await page.getByRole("button", { name: /^sign in$|^دخول$/i }).click();
      await expect(page.getByTestId("current-user")).toBeVisible();
      await expect.soft(page, JSON.stringify(value)).toHaveURL(`${BASE_URL}/patients`);
      landings.push(`${JSON.stringify(value)} → ${page.url()}`);
      expect.soft(new URL(page.url()).origin, JSON.stringify(value)).toBe(BASE_URL);
      await context.close();
    }
    console.log(`[edge] sign-in form with callbackUrl:\n${landings.join("\n")}`);
    expect(offSiteAll).toEqual([]);
  });

  test("the sign-in action called with a forged hostile callbackUrl still lands on the portal", async ({ browser }) => {
    const landings: string[] = [];
    for (const value of ["/.//evil.example", "/\t/evil.example", "//evil.example", "/\\evil.example", "/claims\r\nx: y"]) {
      const context = await browser.newContext({ baseURL: BASE_URL });
      const offSite = await fenceOffSite(context);
      // The form sends {email, password, callbackUrl} to the sign-in action; a page script (or a
      // user) can send any value there: the server decides. Rewrite the action's argument in flight.
      await context.route(
        (url) => url.origin === BASE_URL && url.pathname === "/sign-in",
        async (route) => {
          const request = route.request();
          const body = request.postData();
          if (request.method() !== "POST" || !request.headers()["next-action"] || !body?.includes("callbackUrl")) return route.continue();
          return route.continue({ postData: body.replace(/"callbackUrl":"[^"]*"/, `"callbackUrl":${JSON.stringify(value)}`) });
        },
      );
      const page = await context.newPage();
      // The page's own (safe) target is /eligibility: landing anywhere else proves the forged value reached the action.
      await page.goto("/sign-in?callbackUrl=%2Feligibility");
      await page.getByLabel(/work email|البريد الإلكتروني/i).fill(DEMO.frontDesk);
      await page.getByLabel(/^password$|كلمة المرور/i).fill(DEMO_PASSWORD);
      await page.getByRole("button", { name: /^sign in$|^دخول$/i }).click();
      await expect(page.getByTestId("current-user")).toBeVisible();
      // Refused → the home page, which sends the front desk on to its first area.
      await expect(page).toHaveURL(`${BASE_URL}/patients`);
      landings.push(`${JSON.stringify(value)} → ${page.url()}`);
      expect.soft(new URL(page.url()).origin).toBe(BASE_URL);
      expect.soft(offSite).toEqual([]);
      await context.close();
    }
    console.log(`[edge] sign-in action with a forged callbackUrl:\n${landings.join("\n")}`);
  });

  test("Auth.js' own endpoints answer a hostile callbackUrl with the portal's origin", async () => {
    const api = await signInRequest(DEMO.frontDesk);
    const { csrfToken } = (await (await api.get("/api/auth/csrf")).json()) as { csrfToken: string };
    const seen: string[] = [];
    for (const value of HOSTILE_REDIRECTS) {
      const res = await api.post("/api/auth/callback/credentials", { form: { csrfToken, email: DEMO.frontDesk, password: DEMO_PASSWORD, callbackUrl: value }, headers: { origin: BASE_URL }, maxRedirects: 0 });
      const location = res.headers().location ?? "";
      seen.push(`${JSON.stringify(value)} → ${res.status()} ${location}`);
      expect.soft(res.status(), JSON.stringify(value)).toBeLessThan(500);
      if (location) expect.soft(new URL(location, BASE_URL).origin, JSON.stringify(value)).toBe(BASE_URL);
    }
    console.log(`[edge] POST /api/auth/callback/credentials:\n${seen.join("\n")}`);
    await api.dispose();
  });
});

/** A raw HTTP/1.1 request (node:http lets a test set Host, which fetch does not). */
function raw(method: string, pathname: string, headers: Record<string, string>, body?: string | Buffer): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "localhost", port: PORT, method, path: pathname, headers: { ...(body !== undefined ? { "content-length": String(Buffer.byteLength(body)) } : {}), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

function actionIdOf(exportedName: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(process.cwd(), ".next", "server", "server-reference-manifest.json"), "utf8")) as { node: Record<string, { exportedName?: string; filename?: string }> };
  const found = Object.entries(manifest.node).find(([, v]) => v.exportedName === exportedName);
  if (!found) throw new Error(`no action ${exportedName} in the build's manifest`);
  return found[0];
}

test.describe("one edge for every path; the origin rule against PORTAL_URL", () => {
  let logStart = 0;
  test.beforeAll(() => {
    logStart = fs.existsSync(E2E_SERVER_LOG) ? fs.statSync(E2E_SERVER_LOG).size : 0;
  });

  test("POST /patients/x.png with a front-desk cookie, an action id and no Origin is refused 403; nothing stored", async () => {
    const patient = createPatient({ withCoverage: false });
    const api = await signInRequest(DEMO.frontDesk);
    const cookie = (await api.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    await api.dispose();
    const actionId = actionIdOf("addCoverageAction");
    const memberId = `X46-${randomUUID().slice(0, 8)}`;
    const args = JSON.stringify([{ patientId: patient.id, insurerId: "payer-rimal", memberId, coverageRef: `cov-x46-${memberId.slice(4)}` }]);
    const headers = { cookie, "next-action": actionId, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component" };
    const answers: string[] = [];
    for (const p of ["/patients/x.png", "/patients/x.svg", "/patients/x.ico", "/patients/x.woff2", "/favicon.ico"]) {
      const res = await raw("POST", p, headers, args);
      answers.push(`${p} → ${res.status} ${res.text.slice(0, 100)}`);
      expect.soft(res.status, p).toBe(403);
      expect.soft(res.text, p).toContain('"reason":"cross_origin"');
      expect.soft(res.headers["content-security-policy"], `${p} has the CSP`).toBeTruthy();
    }
    console.log(`[edge] no Origin:\n${answers.join("\n")}`);
    const page = await raw("GET", `/patients/${patient.id}`, { cookie });
    expect(page.status).toBe(200);
    expect(page.text).not.toContain(memberId);

    // The control: the same call from the portal's own origin does run the action (so the refusal above is what stopped it).
    const allowed = await raw("POST", "/patients/x.png", { ...headers, origin: BASE_URL }, args);
    expect(allowed.status).toBe(200);
    expect((await raw("GET", `/patients/${patient.id}`, { cookie })).text).toContain(memberId);
  });

  test("junk and aborted posts to /patients/x.png answer 4xx or nothing, never a 500, and leave no stack in the log", async () => {
    const api = await signInRequest(DEMO.frontDesk);
    const cookie = (await api.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    await api.dispose();
    const statuses: number[] = [];
    for (const [headers, body] of [
      [{ origin: "https://evil.example", "content-type": "multipart/form-data; boundary=zz" }, "--zz\r\nbroken"],
      [{ origin: BASE_URL, "sec-fetch-site": "same-origin", "next-action": "x" }, "[]"],
      [{ origin: BASE_URL, "sec-fetch-site": "same-origin", "next-action": `7f${"ab".repeat(20)}` }, "[]"],
      [{ origin: BASE_URL, "sec-fetch-site": "same-origin", "next-action": actionIdOf("addCoverageAction") }, '["$Q9999",{'],
      [{ origin: BASE_URL, "sec-fetch-site": "same-origin", "content-type": "multipart/form-data; boundary=zz" }, "--zz\r\nbroken"],
    ] as const) {
      statuses.push((await raw("POST", "/patients/x.png", { cookie, ...headers }, body)).status);
    }
    expect(statuses.every((s) => s >= 400 && s < 500), statuses.join(",")).toBe(true);
    // Clients that hang up mid-body: announced 100 kB, sent 20 bytes.
    for (let i = 0; i < 5; i++) {
      await new Promise<void>((resolve) => {
        const socket = net.connect(PORT, "localhost", () => {
          socket.write(
            `POST /patients/x.png HTTP/1.1\r\nHost: localhost:${PORT}\r\nCookie: ${cookie}\r\nOrigin: ${i % 2 ? BASE_URL : "https://evil.example"}\r\nNext-Action: ${actionIdOf("addCoverageAction")}\r\nContent-Type: text/plain;charset=UTF-8\r\nContent-Length: 100000\r\n\r\n["aborted-body`,
          );
          setTimeout(() => (socket.destroy(), resolve()), 300);
        });
        socket.on("error", () => resolve());
      });
    }
    // The server keeps answering.
    expect((await raw("GET", "/api/health", {})).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    const log = fs.readFileSync(E2E_SERVER_LOG, "utf8").slice(logStart);
    expect(log).not.toMatch(/uncaughtException|Error: aborted|\n\s+at .+\(.+:\d+:\d+\)/);
  });

  test("the forged-Host upload: Host and Origin both evil.example are refused 403 (the origin rule reads PORTAL_URL), audited", async () => {
    const api = await signInRequest(DEMO.billing);
    const cookie = (await api.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    await api.dispose();
    const pdf = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
    const upload = (extra: Record<string, string>) => raw("POST", "/api/attachments", { cookie, "content-type": "application/pdf", "x-file-name": "forged-host.pdf", ...extra }, pdf);
    const forged = await upload({ host: "evil.example", origin: "http://evil.example" });
    const forgedPort = await upload({ host: `evil.example:${PORT}`, origin: `http://evil.example:${PORT}`, "sec-fetch-site": "same-origin" });
    const loopback = await upload({ host: `127.0.0.1:${PORT}`, origin: `http://127.0.0.1:${PORT}` });
    console.log(`[edge] forged-Host upload: Host evil.example → ${forged.status} ${forged.text.slice(0, 120)}; Host evil.example:${PORT} + same-origin → ${forgedPort.status}; Host 127.0.0.1 → ${loopback.status}`);
    for (const res of [forged, forgedPort, loopback]) {
      expect.soft(res.status).toBe(403);
      expect.soft(res.text).toContain('"reason":"cross_origin"');
    }
    const ok = await upload({ origin: BASE_URL });
    expect(ok.status).toBe(201);

    const admin = await signInRequest(DEMO.admin);
    const audit = await (await admin.get("/audit?action=request.cross_origin&outcome=denied")).text();
    expect(audit).toContain("origin_mismatch");
    await admin.dispose();
  });

  test("the edge's refusals and a metrics 401 are in the audit log", async () => {
    expect((await raw("GET", "/api/metrics", {})).status).toBe(401);
    expect((await raw("GET", "/api/metrics", { authorization: "Bearer cxm_wrong" })).status).toBe(401);
    const admin = await signInRequest(DEMO.admin);
    const metrics = await (await admin.get("/audit?action=metrics.unauthorized")).text();
    expect(metrics).toContain("metrics.unauthorized");
    const actions = await (await admin.get("/audit?action=request.action_refused")).text();
    expect(actions).toContain("request.action_refused");
    await admin.dispose();
  });
});
