/**
 * The ICU message formatter next-intl uses, in place of `intl-messageformat` (docs/decisions/108).
 *
 * next.config.ts points the bundler's `intl-messageformat` at this file, for the browser and the
 * server alike, so a page's text is formatted by the same code on both sides. `intl-messageformat`
 * with its ICU parser (number and date skeletons, the date-time pattern generator) was 10 kB of
 * the 14 kB of JavaScript every page carried for its words; this is the part of ICU our catalogues
 * use, with the same results:
 *
 * - arguments `{name}` (a number or a string is printed as it is, as intl-messageformat does),
 *   `{n, number}`, `{d, date, short}`, `{t, time}` with the named styles;
 * - `{n, plural, =0 {…} one {…} other {…}}` (exact matches first, then the locale's plural rules;
 *   `#` is the number in the locale's digits), `selectordinal`, `offset:`;
 * - `{x, select, a {…} other {…}}`;
 * - tags `<b>…</b>` for `t.rich`, apostrophe quoting (`''` is an apostrophe, `'{'` a brace).
 *
 * What it does not know (number and date skeletons such as `::currency/SAR`) is refused with an
 * error, which next-intl turns into the key's name on the page and a logged error: the test
 * `message-format.test.ts` formats every message of both catalogues with this and with
 * intl-messageformat and requires the same text, so a new key is checked when it is added.
 */

type Values = Record<string, unknown>;
type Style = Record<string, unknown>;
interface Formats {
  number: Record<string, Style>;
  date: Record<string, Style>;
  time: Record<string, Style>;
}
interface Formatters {
  getNumberFormat(locales: string | string[], options?: Intl.NumberFormatOptions): Intl.NumberFormat;
  getDateTimeFormat(locales: string | string[], options?: Intl.DateTimeFormatOptions): Intl.DateTimeFormat;
  getPluralRules(locales: string | string[], options?: Intl.PluralRulesOptions): Intl.PluralRules;
}

type Node =
  | string
  | { kind: "pound" }
  | { kind: "argument"; name: string }
  | { kind: "number" | "date" | "time"; name: string; style?: string }
  | { kind: "select"; name: string; options: Record<string, Node[]> }
  | { kind: "plural"; name: string; ordinal: boolean; offset: number; options: Record<string, Node[]> }
  | { kind: "tag"; name: string; children: Node[] };

/** ICU's Pattern_White_Space: what may stand around names, types and options. */
const SPACE = /[\t-\r \u0085\u200E\u200F\u2028\u2029]/;
/** An argument's or a tag's name: anything but white space and ICU's syntax characters. */
const NAME = /[^\p{White_Space}\p{Pattern_Syntax}]*/uy;

class Parser {
  private at = 0;
  constructor(private readonly text: string) {}

  parse(): Node[] {
    const nodes = this.message(0, "", false);
    if (this.at < this.text.length) this.fail("unexpected text");
    return nodes;
  }

  private fail(what: string): never {
    throw new SyntaxError(`${what} at ${this.at} in "${this.text}"`);
  }

  private get char(): string {
    return this.text[this.at] ?? "";
  }

  private spaces() {
    while (this.at < this.text.length && SPACE.test(this.char)) this.at++;
  }

  private expect(c: string) {
    if (this.char !== c) this.fail(`expected "${c}"`);
    this.at++;
  }

  private name(): string {
    NAME.lastIndex = this.at;
    const found = NAME.exec(this.text)?.[0] ?? "";
    this.at += found.length;
    return found;
  }

  /** Text and arguments until the end, a closing brace (nested) or a closing tag. */
  private message(depth: number, parent: string, inTag: boolean): Node[] {
    const nodes: Node[] = [];
    const text = (s: string) => {
      if (typeof nodes[nodes.length - 1] === "string") nodes[nodes.length - 1] += s;
      else nodes.push(s);
    };
    const inPlural = parent === "plural" || parent === "selectordinal";
    while (this.at < this.text.length) {
      const c = this.char;
      const next = this.text[this.at + 1] ?? "";
      if (c === "{") {
        nodes.push(this.argument(depth));
      } else if (c === "}" && depth > 0) {
        break;
      } else if (c === "#" && inPlural) {
        nodes.push({ kind: "pound" });
        this.at++;
      } else if (c === "<" && next === "/") {
        if (!inTag) this.fail("a closing tag without its opening tag");
        break;
      } else if (c === "<" && /[A-Za-z]/.test(next)) {
        nodes.push(this.tag(depth, parent));
      } else if (c === "'") {
        text(this.quoted(inPlural));
      } else {
        text(c);
        this.at++;
      }
    }
    return nodes;
  }

  /** An apostrophe: `''` is one; before a syntax character it quotes until the next single one. */
  private quoted(inPlural: boolean): string {
    const next = this.text[this.at + 1] ?? "";
    if (next === "'") {
      this.at += 2;
      return "'";
    }
    const opens = next === "{" || next === "}" || next === "<" || next === ">" || (next === "#" && inPlural);
    if (!opens) {
      this.at++;
      return "'";
    }
    this.at += 2;
    let out = next;
    while (this.at < this.text.length) {
      if (this.char === "'") {
        if (this.text[this.at + 1] === "'") {
          out += "'";
          this.at += 2;
          continue;
        }
        this.at++;
        return out;
      }
      out += this.char;
      this.at++;
    }
    return out;
  }

  private tag(depth: number, parent: string): Node {
    this.at++; // <
    const name = this.name();
    if (this.char === "/" && this.text[this.at + 1] === ">") this.fail("self-closing tags are not supported");
    this.expect(">");
    const children = this.message(depth, parent, true);
    if (!this.text.startsWith(`</${name}>`, this.at)) this.fail(`expected the closing tag </${name}>`);
    this.at += name.length + 3;
    return { kind: "tag", name, children };
  }

  private argument(depth: number): Node {
    this.at++; // {
    this.spaces();
    const name = this.name();
    if (!name) this.fail("an argument without a name");
    this.spaces();
    if (this.char === "}") {
      this.at++;
      return { kind: "argument", name };
    }
    this.expect(",");
    this.spaces();
    const type = this.name();
    this.spaces();
    if (type === "number" || type === "date" || type === "time") {
      let style: string | undefined;
      if (this.char === ",") {
        this.at++;
        this.spaces();
        if (this.text[this.at] === ":") this.fail("skeletons are not supported");
        style = this.name();
        if (!style) this.fail("an empty style");
        this.spaces();
      }
      this.expect("}");
      return { kind: type, name, ...(style ? { style } : {}) };
    }
    if (type !== "plural" && type !== "selectordinal" && type !== "select") this.fail(`the argument type "${type}" is not supported`);
    this.expect(",");
    this.spaces();
    let offset = 0;
    if (type !== "select" && this.text.startsWith("offset:", this.at)) {
      this.at += "offset:".length;
      this.spaces();
      const digits = /-?\d+/y;
      digits.lastIndex = this.at;
      const found = digits.exec(this.text)?.[0];
      if (!found) this.fail("an offset without a number");
      offset = Number(found);
      this.at += found.length;
      this.spaces();
    }
    const options: Record<string, Node[]> = {};
    while (this.char !== "}") {
      let selector: string;
      if (type !== "select" && this.char === "=") {
        const exact = /=-?\d+(?:\.\d+)?/y;
        exact.lastIndex = this.at;
        selector = exact.exec(this.text)?.[0] ?? this.fail("an exact match without a number");
        this.at += selector.length;
      } else {
        selector = this.name();
      }
      if (!selector) this.fail("an option without a selector");
      if (selector in options) this.fail(`the option "${selector}" twice`);
      this.spaces();
      this.expect("{");
      options[selector] = this.message(depth + 1, type, false);
      this.expect("}");
      this.spaces();
    }
    this.at++; // }
    if (!("other" in options)) this.fail(`"${type}" without its "other" option`);
    return type === "select" ? { kind: "select", name, options } : { kind: "plural", name, ordinal: type === "selectordinal", offset, options };
  }
}

type Part = { literal: true; value: string } | { literal: false; value: unknown };

const defaultFormatters: Formatters = {
  getNumberFormat: (locales, options) => new Intl.NumberFormat(locales, options),
  getDateTimeFormat: (locales, options) => new Intl.DateTimeFormat(locales, options),
  getPluralRules: (locales, options) => new Intl.PluralRules(locales, options),
};

function merge(base: Formats, extra?: Partial<Formats>): Formats {
  if (!extra) return base;
  return {
    number: { ...base.number, ...extra.number },
    date: { ...base.date, ...extra.date },
    time: { ...base.time, ...extra.time },
  };
}

export class IntlMessageFormat {
  /** The named styles of `{x, number, …}`, `{d, date, …}` and `{t, time, …}` (next-intl reads and extends them). */
  static formats: Formats = {
    number: { integer: { maximumFractionDigits: 0 }, currency: { style: "currency" }, percent: { style: "percent" } },
    date: {
      short: { month: "numeric", day: "numeric", year: "2-digit" },
      medium: { month: "short", day: "numeric", year: "numeric" },
      long: { month: "long", day: "numeric", year: "numeric" },
      full: { weekday: "long", month: "long", day: "numeric", year: "numeric" },
    },
    time: {
      short: { hour: "numeric", minute: "numeric" },
      medium: { hour: "numeric", minute: "numeric", second: "numeric" },
      long: { hour: "numeric", minute: "numeric", second: "numeric", timeZoneName: "short" },
      full: { hour: "numeric", minute: "numeric", second: "numeric", timeZoneName: "short" },
    },
  };

  private readonly ast: Node[];
  private readonly formats: Formats;
  private readonly formatters: Formatters;

  constructor(
    readonly message: string,
    readonly locales: string | string[] = "en",
    formats?: Partial<Formats>,
    options?: { formatters?: Formatters },
  ) {
    if (typeof message !== "string") throw new TypeError("a message must be a string");
    this.ast = new Parser(message).parse();
    this.formats = merge(IntlMessageFormat.formats, formats);
    this.formatters = options?.formatters ?? defaultFormatters;
  }

  format = (values?: Values): unknown => {
    const parts = this.parts(this.ast, values, undefined);
    if (parts.length === 1) return parts[0]!.value;
    const out: unknown[] = [];
    for (const part of parts) {
      if (part.literal && typeof out[out.length - 1] === "string") out[out.length - 1] += part.value;
      else out.push(part.value);
    }
    return out.length <= 1 ? (out[0] ?? "") : out;
  };

  private parts(nodes: Node[], values: Values | undefined, pluralValue: number | undefined): Part[] {
    const out: Part[] = [];
    const literal = (value: string) => {
      const last = out[out.length - 1];
      if (last?.literal) last.value += value;
      else out.push({ literal: true, value });
    };
    for (const node of nodes) {
      if (typeof node === "string") {
        literal(node);
        continue;
      }
      if (node.kind === "pound") {
        if (typeof pluralValue === "number") literal(this.formatters.getNumberFormat(this.locales).format(pluralValue));
        continue;
      }
      if (!values || !(node.name in values)) throw new Error(`the message "${this.message}" needs the value "${node.name}"`);
      const value = values[node.name];
      switch (node.kind) {
        case "argument":
          if (typeof value === "string" || typeof value === "number") literal(String(value));
          else if (!value) literal("");
          else out.push({ literal: false, value });
          break;
        case "number": {
          const style = node.style ? this.formats.number[node.style] : undefined;
          const scale = typeof style?.scale === "number" ? style.scale : 1;
          literal(this.formatters.getNumberFormat(this.locales, style as Intl.NumberFormatOptions).format((value as number) * scale));
          break;
        }
        case "date":
        case "time": {
          const styles = this.formats[node.kind];
          const style = node.style ? styles[node.style] : node.kind === "time" ? styles.medium : undefined;
          literal(this.formatters.getDateTimeFormat(this.locales, style as Intl.DateTimeFormatOptions).format(value as Date | number));
          break;
        }
        case "tag": {
          if (typeof value !== "function") throw new Error(`the tag <${node.name}> needs a function`);
          const inner = this.parts(node.children, values, pluralValue).map((p) => p.value);
          const chunks: unknown = value(inner);
          for (const chunk of Array.isArray(chunks) ? chunks : [chunks]) {
            if (typeof chunk === "string") literal(chunk);
            else out.push({ literal: false, value: chunk });
          }
          break;
        }
        case "select": {
          const option = node.options[String(value)] ?? node.options.other!;
          for (const p of this.parts(option, values, undefined)) {
            if (p.literal) literal(p.value);
            else out.push(p);
          }
          break;
        }
        case "plural": {
          let option = node.options[`=${String(value)}`];
          const n = (value as number) - node.offset;
          if (!option) {
            const rule = this.formatters.getPluralRules(this.locales, { type: node.ordinal ? "ordinal" : "cardinal" }).select(n);
            option = node.options[rule] ?? node.options.other!;
          }
          for (const p of this.parts(option, values, n)) {
            if (p.literal) literal(p.value);
            else out.push(p);
          }
          break;
        }
      }
    }
    return out;
  }
}

export default IntlMessageFormat;
