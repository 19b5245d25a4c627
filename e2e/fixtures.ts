import { execFileSync } from "node:child_process";
import { expect, test as base, type Page } from "@playwright/test";
import { E2E_PORTAL_DATA_DIR } from "../playwright.config";

export const DEMO_PASSWORD = "demo-pass-2026";

export const DEMO = {
  frontDesk: "frontdesk@clinic.example",
  billing: "billing@clinic.example",
  manager: "manager@clinic.example",
  admin: "admin@clinic.example",
} as const;

/** Runs the real admin CLI against the running portal (through its admin socket). */
export function adminCli(args: string[], input?: string): unknown {
  const out = execFileSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args, "--json"], {
    input,
    env: { ...process.env, DATA_DIR: E2E_PORTAL_DATA_DIR },
    encoding: "utf8",
  });
  return JSON.parse(out);
}

let counter = 0;
/** A fresh user for tests that change account state (lockout, disable). */
export function createUser(roles: string[], password = "e2e-password-123"): { email: string; password: string } {
  const email = `e2e-${Date.now()}-${counter++}@clinic.example`;
  adminCli(["user:create", "--email", email, ...roles.flatMap((r) => ["--role", r]), "--password-stdin"], password);
  return { email, password };
}

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel(/work email|البريد الإلكتروني/i).fill(email);
  await page.getByLabel(/^password$|كلمة المرور/i).fill(password);
  await page.getByRole("button", { name: /^sign in$|^دخول$/i }).click();
  await expect(page.getByTestId("current-user")).toBeVisible();
}

export async function navLabels(page: Page): Promise<string[]> {
  const nav = page.getByRole("navigation", { name: /main navigation|القائمة الرئيسية/i });
  return (await nav.getByRole("link").allTextContents()).map((t) => t.trim());
}

export const test = base;
export { expect };
