import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { NextIntlClientProvider } from "next-intl";
import { describe, expect, it } from "vitest";
import en from "@/lib/i18n/messages/en.json";
import type { EligibilityCheckView } from "@/lib/eligibility";
import { EligibilityAnswerDetails, EligibilityAnswerHeadline } from "./eligibility-answer";
import { ERROR_KEYS } from "./error-keys";

/*
 * The eligibility form's answer is a chunk of its own (decision 108, amended 2026-11-29): what it
 * shows (components/forms/first-load-imports.test.ts checks the form imports it only dynamically).
 */

const check: EligibilityCheckView = {
  id: "chk-1",
  checkedAt: "2026-11-29T08:00:00Z",
  requestId: "req-1",
  patient: { id: "p-1", nationalId: "1000000008", givenName: "Sara", familyName: "Ali" },
  insurer: { id: "i-1", nameEn: "Gulf Health", nameAr: "الخليج الصحية" },
  servicedDate: "2026-11-29",
  purposes: ["benefits", "validation"],
  categories: [],
  outcome: "rejected",
  inforce: null,
  error: { code: "ERR-001", status: 400, field: "patientId" },
};

function render(element: React.ReactElement): string {
  const props = { locale: "en", messages: en, timeZone: "Asia/Riyadh" };
  return renderToStaticMarkup(createElement(NextIntlClientProvider, props as unknown as Parameters<typeof NextIntlClientProvider>[0], element));
}

describe("the eligibility answer", () => {
  it("announces the outcome in words and shows the banner: a refused check names the platform's reason", () => {
    const html = render(createElement(EligibilityAnswerHeadline, { check }));
    expect(html).toContain('class="sr-only"');
    expect(html).toContain("The check was not completed:");
    expect(html).toContain(en.eligibility.errors.err001.replace(/'/g, "&#x27;"));
    expect(html).toContain('data-testid="eligibility-outcome"');
  });

  it("gives the link to the check's own page and printing", () => {
    const html = render(createElement(EligibilityAnswerDetails, { check: { ...check, outcome: "in_force", inforce: true, error: undefined } }));
    expect(html).toContain('href="/eligibility/chk-1"');
    expect(html).toContain(en.eligibility.result.openResult);
    expect(html).toContain(en.eligibility.result.print);
  });

  it("maps every platform error code to a message the catalogue has", () => {
    for (const key of Object.values(ERROR_KEYS)) expect(en.eligibility.errors[key]).toBeTruthy();
  });
});
