import { IntlMessageFormat as Reference } from "intl-messageformat";
import { describe, expect, it } from "vitest";
import { IntlMessageFormat } from "./message-format";
import ar from "./messages/ar.json";
import en from "./messages/en.json";

/*
 * The pages format their words with lib/i18n/message-format.ts (next.config.ts aliases
 * intl-messageformat to it, docs/decisions/108). Every message of both catalogues must give the
 * same text as intl-messageformat, the library next-intl was written for, for values that reach
 * every branch: a key another change adds is checked here with no wiring.
 */

function messages(value: unknown, prefix = ""): [string, string][] {
  if (typeof value === "string") return [[prefix, value]];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => messages(v, prefix ? `${prefix}.${k}` : k));
}

interface AstNode {
  type: number;
  value?: string;
  options?: Record<string, { value: AstNode[] }>;
  children?: AstNode[];
}

/** Each argument the reference parser finds, with the values that reach each of its branches. */
function samples(ast: AstNode[], into = new Map<string, unknown[]>()): Map<string, unknown[]> {
  for (const node of ast) {
    if (!node.value || node.type === 0) continue;
    const list = into.get(node.value) ?? [];
    // 1 argument, 2 number, 3 date, 4 time, 5 select, 6 plural, 8 tag
    if (node.type === 1) list.push("Nūr", 42, 1234.5, 0, "");
    if (node.type === 2) list.push(0, 1, 1234.5);
    if (node.type === 3 || node.type === 4) list.push(new Date(Date.UTC(2026, 10, 28, 9, 5)));
    if (node.type === 5) list.push(...Object.keys(node.options ?? {}), "something-else");
    if (node.type === 6) list.push(0, 1, 2, 3, 5, 11, 12, 100, 101, 1000, 1.5);
    if (node.type === 8) list.push((chunks: unknown[]) => `[${chunks.join("")}]`);
    into.set(node.value, list);
    for (const option of Object.values(node.options ?? {})) samples(option.value, into);
    if (node.children) samples(node.children, into);
  }
  return into;
}

/** Value sets: each argument's samples in turn, the others at their first sample. */
function valueSets(args: Map<string, unknown[]>): Record<string, unknown>[] {
  const first = Object.fromEntries([...args].map(([k, v]) => [k, v[0]]));
  const sets: Record<string, unknown>[] = [first];
  for (const [name, list] of args) for (const value of list.slice(1)) sets.push({ ...first, [name]: value });
  return sets;
}

const formatters = {
  getNumberFormat: (l: string | string[], o?: Intl.NumberFormatOptions) => new Intl.NumberFormat(l, o),
  getDateTimeFormat: (l: string | string[], o?: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(l, { timeZone: "Asia/Riyadh", ...o }),
  getPluralRules: (l: string | string[], o?: Intl.PluralRulesOptions) => new Intl.PluralRules(l, o),
};

describe("the message formatter", () => {
  for (const [locale, catalogue] of [["en", en], ["ar", ar]] as const) {
    it(`formats every ${locale} message as intl-messageformat does`, () => {
      let checked = 0;
      for (const [key, text] of messages(catalogue)) {
        const reference = new Reference(text, locale, undefined, { formatters });
        const ours = new IntlMessageFormat(text, locale, undefined, { formatters });
        for (const values of valueSets(samples(reference.getAst() as AstNode[]))) {
          expect(ours.format(values), `${key} with ${JSON.stringify(values)}`).toEqual(reference.format(values));
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(1900);
    });
  }

  const cases: [string, Record<string, unknown> | undefined][] = [
    ["Don't stop", undefined],
    ["It''s '{literal}' and '{'quoted'}' and a '#", undefined],
    ["{n, plural, =0 {none} one {# item '#'} other {# items}}", { n: 3 }],
    ["{n, plural, offset:1 =0 {nobody} one {you} other {you and # others}}", { n: 4 }],
    ["{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}", { n: 22 }],
    ["{a, select, x {{n, plural, one {# one} other {# many}}} other {# not a number here}}", { a: "x", n: 2 }],
    ["Paid {amount, number, integer} on {d, date, medium} at {d, time, short}", { amount: 12.6, d: new Date(Date.UTC(2026, 0, 2, 3, 4)) }],
    ["Read <b>the {what}</b> now", { what: "guide", b: (c: unknown[]) => `*${c.join("")}*` }],
    ["a < b and 3 > 2, a } alone", undefined],
    ["{ spaced , plural , one {x} other {y} }", { spaced: 1 }],
  ];
  it.each(cases)("formats %s like intl-messageformat", (text, values) => {
    for (const locale of ["en", "ar"]) {
      expect(new IntlMessageFormat(text, locale, undefined, { formatters }).format(values)).toEqual(
        new Reference(text, locale, undefined, { formatters }).format(values),
      );
    }
  });

  it("returns an element list for rich text, as next-intl's t.rich expects", () => {
    const element = { type: "strong" };
    expect(new IntlMessageFormat("Hello <b>you</b>!", "en").format({ b: () => element })).toEqual(["Hello ", element, "!"]);
  });

  it.each([
    ["{n, plural, one {x}}", "no other option"],
    ["{n, number, ::currency/SAR}", "a skeleton"],
    ["{n, spellout}", "an unknown type"],
    ["{unclosed", "an unclosed argument"],
    ["<b>open", "an unclosed tag"],
    ["{n, select, a {x} a {y} other {z}}", "a repeated option"],
  ])("refuses %s (%s), as next-intl expects of a message it cannot read", (text) => {
    expect(() => new IntlMessageFormat(text, "en")).toThrow();
  });

  it("needs every value its message names", () => {
    expect(() => new IntlMessageFormat("Hi {name}", "en").format({})).toThrow(/name/);
  });
});
