import { describe, expect, it } from "vitest";
import ar from "./messages/ar.json";
import en from "./messages/en.json";

function keys(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

function placeholders(text: unknown): string[] {
  return typeof text === "string" ? [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort() : [];
}

function lookup(obj: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], obj);
}

describe("message catalogues", () => {
  it("English and Arabic have exactly the same keys", () => {
    expect(keys(ar).sort()).toEqual(keys(en).sort());
  });
  it("use the same placeholders and no empty strings", () => {
    for (const key of keys(en)) {
      expect(placeholders(lookup(ar, key)), key).toEqual(placeholders(lookup(en, key)));
      expect(String(lookup(ar, key)).trim(), key).not.toBe("");
    }
  });
  it("Arabic text is in Arabic script", () => {
    expect(lookup(ar, "nav.claims")).toMatch(/[\u0600-\u06FF]/);
  });
});
