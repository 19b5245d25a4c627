import { screenSources } from "@/lib/testing/source-files";
import { describe, expect, it } from "vitest";
import {
  ADJUDICATION_REASONS,
  CODE_SYSTEMS,
  FIXED_DISPOSITIONS,
  OVERALL_NOTES_AR,
  SANDBOX_ADJUDICATION_REASON_SYSTEM,
  readDisposition,
  writeDisposition,
  writeNote,
  type AdjudicationReasonCode,
  type DispositionFacts,
} from "@/lib/fhir";
import { dispositionWords, noteWords, reasonWords } from "./platform-words";

const ARABIC = /[\u0600-\u06FF]/;
/** Latin letters outside a code: an Arabic answer must not carry English words. */
const ENGLISH_WORD = /\b[A-Za-z]{3,}\b/;

describe("the platform's words", () => {
  it("puts a known reason code into the page's language, the platform's text as a secondary line", () => {
    const reason = { system: SANDBOX_ADJUDICATION_REASON_SYSTEM, code: "price-list", display: "Reduced to the price list" };
    expect(reasonWords(reason, "ar")).toEqual({ words: "خُفِّض إلى سعر القائمة", platformText: "Reduced to the price list", known: true });
    // The same words in English: no secondary line.
    expect(reasonWords(reason, "en")).toEqual({ words: "Reduced to the price list", known: true });
    expect(reasonWords({ system: CODE_SYSTEMS.adjudicationReason, code: "ar002" }, "ar")).toEqual({ words: "تم بلوغ حد المنفعة", known: true });
  });

  it("keeps an unknown reason's text and its code, and never answers with nothing", () => {
    expect(reasonWords({ system: "https://payer.example/reasons", code: "X42", display: "Duplicate of claim 123" }, "ar")).toEqual({
      words: "Duplicate of claim 123",
      code: "X42",
      known: false,
    });
    // A known code in another system is not ours to translate.
    expect(reasonWords({ system: "https://payer.example/reasons", code: "ar001", text: "Not in contract" }, "ar")).toMatchObject({ words: "Not in contract", code: "ar001", known: false });
    expect(reasonWords({ code: "Z9" }, "ar")).toEqual({ words: "Z9", known: false });
    expect(reasonWords({}, "en")).toEqual({ words: "—", known: false });
  });

  it("has Arabic words for every reason code, fixed disposition and note", () => {
    for (const code of Object.keys(ADJUDICATION_REASONS) as AdjudicationReasonCode[]) {
      expect(reasonWords({ code }, "ar").words).toMatch(ARABIC);
    }
    for (const text of Object.values(FIXED_DISPOSITIONS)) {
      const ar = dispositionWords(text, "ar");
      expect(ar.known, text).toBe(true);
      expect(ar.words, text).toMatch(ARABIC);
      expect(ar.words, text).not.toMatch(ENGLISH_WORD);
      expect(ar.platformText).toBe(text);
    }
    for (const text of Object.values(OVERALL_NOTES_AR)) {
      expect(noteWords(text, "ar")).toEqual({ words: text, known: true });
      expect(noteWords(text, "en").words).not.toMatch(ARABIC);
      expect(noteWords(text, "en").platformText).toBe(text);
    }
  });

  it("reads back every disposition the platform writes, and says it in Arabic", () => {
    const cases: DispositionFacts[] = [
      { kind: "denied", use: "claim", reasons: ["ar001"] },
      { kind: "denied", use: "preauthorization", reasons: ["preauth-required", "coverage-inactive"] },
      { kind: "partial", use: "claim", affected: 1, items: 3, reasons: ["price-list", "ar002"] },
      { kind: "fixed", key: "claimComplete" },
    ];
    for (const facts of cases) {
      const text = writeDisposition(facts);
      expect(readDisposition(text)).toEqual(facts);
      const ar = dispositionWords(text, "ar");
      expect(ar.words).toMatch(ARABIC);
      expect(ar.words).not.toMatch(ENGLISH_WORD);
      expect(ar.platformText).toBe(text);
    }
    expect(dispositionWords("Claim denied: not covered by the plan", "ar")).toEqual({
      words: "رُفضت المطالبة: غير مشمول بالتغطية",
      platformText: "Claim denied: not covered by the plan",
      known: true,
    });
    expect(dispositionWords("Claim partially approved: 1 of 2 item(s) reduced to the price list", "ar").words).toBe(
      "تمت الموافقة على المطالبة جزئياً (البنود المتأثرة 1 من 2): خُفِّض إلى سعر القائمة",
    );
    expect(dispositionWords("Claim partially approved: 1 of 2 item(s) reduced to the price list", "en").words).toBe(
      "Claim partly approved (1 of 2 items affected): Reduced to the price list",
    );
  });

  it("shows an unknown disposition or note as the platform wrote it", () => {
    expect(dispositionWords("Claim denied: a reason we never heard of", "ar")).toEqual({ words: "Claim denied: a reason we never heard of", known: false });
    expect(dispositionWords("  ", "ar")).toEqual({ words: "—", known: false });
    expect(noteWords("Please resubmit with the referral", "ar")).toEqual({ words: "Please resubmit with the referral", known: false });
  });

  it("puts the national style's notes into the page's language", () => {
    const note = writeNote({ kind: "itemReason", item: 2, reason: "ar001" });
    expect(noteWords(note, "ar")).toEqual({ words: "البند 2: غير مشمول بالتغطية", platformText: note, known: true });
    expect(noteWords(note, "en")).toEqual({ words: note, known: true });
    expect(noteWords(writeNote({ kind: "itemReplaced", item: 1 }), "ar").words).toBe("استُبدل البند 1 بالخدمة المتعاقد عليها بسعر القائمة");
  });

  it("is the only table of the platform's words: no screen keeps its own", () => {
    const offenders = screenSources().filter(({ text }) => {
      return (
        // Reason codes looked up or keyed outside lib/i18n/platform-words.ts.
        /\bADJUDICATION_REASONS\b/.test(text) ||
        /\bar001\s*:/.test(text) ||
        /"preauth-required"\s*:/.test(text) ||
        // The platform's fixed texts matched on a screen.
        Object.values(FIXED_DISPOSITIONS).some((d) => text.includes(d)) ||
        Object.values(OVERALL_NOTES_AR).some((d) => text.includes(d))
      );
    });
    expect(offenders.map((f) => f.path)).toEqual([]);
  });
});
