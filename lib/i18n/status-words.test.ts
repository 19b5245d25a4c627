import { screenSources } from "@/lib/testing/source-files";
import { describe, expect, it } from "vitest";
import { SUBMISSION_KINDS, SUBMISSION_STATUSES } from "@/lib/db/schema";
import { DECISION_STATUS as APPLY_DECISION_STATUS } from "@/lib/submissions/apply";
import ar from "./messages/ar.json";
import en from "./messages/en.json";
import { DECISION_STATUS, STATUS_ORDER, STATUS_WORDS, TONES, outcomeOfView, statusLabel } from "./status-words";

type Catalogue = Record<string, Record<string, string>>;
const catalogues = { en: en.statusWords as Catalogue, ar: ar.statusWords as Catalogue };

describe("the one status vocabulary", () => {
  it("lists every submission status, in the screens' order", () => {
    expect([...STATUS_ORDER].sort()).toEqual([...SUBMISSION_STATUSES].sort());
    for (const s of SUBMISSION_STATUSES) expect(STATUS_WORDS).toContain(s);
  });

  it("has words for every (kind, word) in English and in Arabic, distinct within a kind", () => {
    for (const [lang, words] of Object.entries(catalogues)) {
      for (const kind of SUBMISSION_KINDS) {
        expect(Object.keys(words[kind]!).sort(), `${lang} ${kind}`).toEqual([...STATUS_WORDS].sort());
        for (const word of STATUS_WORDS) {
          const text = words[kind]![word];
          expect(text?.trim(), `${lang} ${kind}.${word}`).toBeTruthy();
          if (lang === "ar") expect(text, `${kind}.${word}`).toMatch(/[\u0600-\u06FF]/);
        }
        const texts = Object.values(words[kind]!);
        expect(new Set(texts).size, `${lang} ${kind}: two statuses share words`).toBe(texts.length);
      }
    }
  });

  it("names a finished claim the same everywhere and a queued one too", () => {
    // "Paid" is what a remittance says (statusWords.payment), never a decision.
    expect(en.statusWords.claim.complete).toBe("Approved");
    expect(en.statusWords.claim.partial).toBe("Partly approved");
    expect(en.statusWords.claim.queued).toBe("Waiting to send");
    expect(en.statusWords.preauthorization.complete).toBe("Approved");
    expect(statusLabel("claim", "complete")).toEqual({ key: "claim.complete", word: "complete", tone: "green" });
    expect(statusLabel(null, "queued").key).toBe("claim.queued");
  });

  it("never calls a decision that pays 0.00 'Partly approved' or 'Approved with changes'", () => {
    expect(statusLabel("claim", "partial", { benefitMinor: 0, reasonCodes: [] }).word).toBe("zeroBenefit");
    expect(statusLabel("claim", "complete", { benefitMinor: 0 }).word).toBe("zeroBenefit");
    expect(statusLabel("claim", "partial", { benefitMinor: 0, reasonCodes: ["ar002"] })).toEqual({ key: "claim.zeroBenefitLimit", word: "zeroBenefitLimit", tone: "red" });
    expect(statusLabel("preauthorization", "complete", { benefitMinor: 0, reasonCodes: ["ar002"] }).key).toBe("preauthorization.zeroBenefitLimit");
    expect(en.statusWords.claim.zeroBenefitLimit).toBe("Not payable — plan limit reached");
    // A benefit, or no amounts at all, keeps the status's own words; a denial stays a denial.
    expect(statusLabel("claim", "partial", { benefitMinor: 1 }).word).toBe("partial");
    expect(statusLabel("claim", "partial", {}).word).toBe("partial");
    expect(statusLabel("claim", "denied", { benefitMinor: 0 }).word).toBe("denied");
    expect(statusLabel("claim", "pended", { benefitMinor: 0 }).word).toBe("pended");
  });

  it("reads the outcome from a stored response view", () => {
    const view = { total: { benefit: { value: 0, minor: 0, currency: "SAR" } }, items: [{ reasons: [{ code: "ar002" }] }], addItems: [] };
    expect(outcomeOfView(view)).toEqual({ benefitMinor: 0, reasonCodes: ["ar002"] });
    expect(outcomeOfView({ total: {}, items: "not a list" })).toEqual({ reasonCodes: [] });
    expect(outcomeOfView(null)).toBeUndefined();
    expect(outcomeOfView([1])).toBeUndefined();
  });

  it("maps the readers' decisions exactly as the submission applies them (lib/submissions/apply.ts)", () => {
    for (const [decision, status] of Object.entries(APPLY_DECISION_STATUS)) {
      expect(DECISION_STATUS[decision as keyof typeof DECISION_STATUS]).toBe(status ?? "pended");
    }
    expect(Object.keys(DECISION_STATUS).sort()).toEqual(Object.keys(APPLY_DECISION_STATUS).sort());
  });

  it("gives every word a tone", () => {
    for (const word of STATUS_WORDS) expect(TONES[word]).toMatch(/^(slate|green|red|amber|blue)$/);
  });

  it("is the only status table: no screen keeps its own words or tones", () => {
    for (const [lang, messages] of Object.entries({ en, ar })) {
      const m = messages as unknown as Record<string, Record<string, unknown>>;
      expect(m.claims?.status, lang).toBeUndefined();
      expect((m.claims?.batch as Record<string, unknown> | undefined)?.status, lang).toBeUndefined();
      expect(m.authorizations?.status, lang).toBeUndefined();
      expect(m.patients?.submissionStatus, lang).toBeUndefined();
      expect(m.dashboard?.status, lang).toBeUndefined();
    }
    const offenders = screenSources().filter(({ text }) => {
      // A per-screen table: keyed by submission statuses, or status words looked up outside statusWords.
      return (
        /t\(`status\.\$\{/.test(text) ||
        /submissionStatus\./.test(text) ||
        /Translations\("(claims|authorizations|dashboard|claims\.batch)\.status"\)/.test(text) ||
        /\bcomplete:\s*"(green|emerald|bg-)/.test(text)
      );
    });
    expect(offenders.map((f) => f.path)).toEqual([]);
  });
});
