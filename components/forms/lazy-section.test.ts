import { createElement, Suspense } from "react";
import { prerenderToNodeStream } from "react-dom/static";
import { describe, expect, it } from "vitest";
import { lazySection } from "./lazy-section";

/*
 * A form part loaded as a chunk of its own (decision 108, amended 2026-11-29): the server's HTML has
 * the part itself in place — its label and field, not the loading box — and its fields disabled
 * until the part's code has hydrated them (text typed before then would be reset).
 */

async function serverHtml(element: React.ReactElement): Promise<string> {
  const { prelude } = await prerenderToNodeStream(element);
  let html = "";
  for await (const chunk of prelude) html += String(chunk);
  return html;
}

function Field({ label, name }: { label: string; name: string }) {
  return createElement("label", null, label, createElement("input", { name }));
}

describe("lazySection", () => {
  it("renders the part in place on the server, its fields disabled until its code is live", async () => {
    let loads = 0;
    const Part = lazySection(async () => {
      loads++;
      return Field;
    });
    const html = await serverHtml(createElement(Suspense, { fallback: createElement("div", { "data-testid": "loading" }) }, createElement(Part, { label: "Diagnoses", name: "diagnoses" })));
    expect(html).toContain('<fieldset role="none" disabled="" class="contents">');
    expect(html).toContain("<label>Diagnoses<input name=\"diagnoses\"/></label>");
    expect(html).not.toContain('data-testid="loading"');
    expect(loads).toBe(1);
  });

  it("passes every prop through to the part", async () => {
    const seen: Record<string, unknown>[] = [];
    const Part = lazySection(async () => (props: { label: string; name: string }) => {
      seen.push(props);
      return Field(props);
    });
    await serverHtml(createElement(Suspense, { fallback: null }, createElement(Part, { label: "Patient", name: "patientId" })));
    expect(seen[0]).toEqual({ label: "Patient", name: "patientId" });
  });
});
