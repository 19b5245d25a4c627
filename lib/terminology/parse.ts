/**
 * Reading a clinic's code file (docs/decisions/086): CSV line by line as it streams in, or a FHIR
 * CodeSystem (JSON, bounded in size). Each concept becomes a record or a refusal that names its
 * line in words; nothing here touches the database.
 */

export interface CodeRecord {
  line: number;
  code: string;
  en: string;
  ar: string;
}
export interface LineProblem {
  line: number;
  message: string;
}
export type ParsedLine = ({ ok: true } & CodeRecord) | ({ ok: false } & LineProblem);

export const MAX_CODE_LENGTH = 64;
export const MAX_DISPLAY_LENGTH = 500;
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const UNPAIRED = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The refusal of one concept, or undefined when it can be stored. */
function problemOf(code: string, en: string, ar: string): string | undefined {
  if (!code) return "the code is empty";
  if (code.length > MAX_CODE_LENGTH) return `the code is longer than ${MAX_CODE_LENGTH} characters`;
  if (/\s/.test(code)) return `the code "${code}" contains a space`;
  if (!en) return `the code ${code} has no English description`;
  if (en.length > MAX_DISPLAY_LENGTH || ar.length > MAX_DISPLAY_LENGTH) return `the description of ${code} is longer than ${MAX_DISPLAY_LENGTH} characters`;
  for (const text of [code, en, ar]) if (CONTROL.test(text) || UNPAIRED.test(text)) return `the line holds a control character or broken text`;
  return undefined;
}

function record(line: number, code: string, en: string, ar: string): ParsedLine {
  const [c, e, a] = [code.trim(), en.trim().replace(/\s+/g, " "), ar.trim().replace(/\s+/g, " ")];
  const problem = problemOf(c, e, a);
  return problem ? { ok: false, line, message: problem } : { ok: true, line, code: c, en: e, ar: a };
}

/** One CSV line's fields (RFC 4180 quoting within the line), or undefined when a quote is left open. */
export function csvFields(text: string): string[] | undefined {
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field.trim() === "") {
      quoted = true;
      field = "";
    } else if (ch === ",") {
      fields.push(field);
      field = "";
    } else field += ch;
  }
  if (quoted) return undefined;
  fields.push(field);
  return fields;
}

const HEADER_NAMES = {
  code: ["code"],
  en: ["display", "display_en", "description", "description_en", "english"],
  ar: ["display_ar", "description_ar", "arabic", "designation_ar"],
} as const;

/**
 * Reads CSV lines: the first non-empty line is the header (`code`, `display` or `display_en`, and
 * optionally `display_ar`; any order, other columns ignored; without it the file is refused whole);
 * each later line is one code. A code given twice is refused on its second line.
 */
export async function* parseCsv(lines: AsyncIterable<string>): AsyncGenerator<ParsedLine> {
  let columns: { code: number; en: number; ar: number } | undefined;
  const seen = new Map<string, number>();
  let line = 0;
  for await (const raw of lines) {
    line++;
    const text = (line === 1 ? raw.replace(/^\uFEFF/, "") : raw).replace(/\r$/, "");
    if (!text.trim()) continue;
    const fields = csvFields(text);
    if (!fields) {
      yield { ok: false, line, message: "a quoted field is not closed on this line (a description may not span lines)" };
      continue;
    }
    if (!columns) {
      const names = fields.map((f) => f.trim().toLowerCase());
      const find = (options: readonly string[]) => names.findIndex((n) => options.includes(n));
      const found = { code: find(HEADER_NAMES.code), en: find(HEADER_NAMES.en), ar: find(HEADER_NAMES.ar) };
      if (found.code < 0 || found.en < 0) {
        throw new CodeFileError(`Line ${line}, the first line, must name the columns: "code" and "display" (optionally "display_ar").`);
      }
      columns = found;
      continue;
    }
    if (fields.length <= Math.max(columns.code, columns.en)) {
      yield { ok: false, line, message: `the line has ${fields.length} column${fields.length === 1 ? "" : "s"}; the header names ${Math.max(columns.code, columns.en, columns.ar) + 1}` };
      continue;
    }
    const parsed = record(line, fields[columns.code] ?? "", fields[columns.en] ?? "", columns.ar >= 0 ? (fields[columns.ar] ?? "") : "");
    if (parsed.ok) {
      const first = seen.get(parsed.code);
      if (first !== undefined) {
        yield { ok: false, line, message: `the code ${parsed.code} was already given on line ${first}` };
        continue;
      }
      seen.set(parsed.code, line);
    }
    yield parsed;
  }
  if (!columns) throw new CodeFileError("The file is empty.");
}

/** Splits a stream of text chunks into lines (a line never lost across a chunk boundary). */
export async function* linesOf(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let rest = "";
  for await (const chunk of chunks) {
    rest += chunk;
    let at: number;
    while ((at = rest.indexOf("\n")) >= 0) {
      yield rest.slice(0, at);
      rest = rest.slice(at + 1);
    }
  }
  if (rest) yield rest;
}

/**
 * The line on which each concept object of a CodeSystem starts, in document order (nested
 * concepts after their parent, as parseCodeSystem walks them): a scan of the JSON text that
 * follows strings and nesting, so a refusal can name the line.
 */
function conceptLines(text: string): number[] {
  const lines: number[] = [];
  const stack: { array: boolean; key?: string }[] = [];
  let line = 1;
  let lastString: string | undefined;
  let pendingKey: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\n") line++;
    else if (ch === '"') {
      let j = i + 1;
      let value = "";
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === "\\") j++;
        else value += text[j];
      }
      lastString = value;
      i = j;
    } else if (ch === ":") pendingKey = lastString;
    else if (ch === "[") {
      stack.push({ array: true, key: pendingKey });
      pendingKey = undefined;
    } else if (ch === "{") {
      const top = stack[stack.length - 1];
      if (top?.array && top.key === "concept") lines.push(line);
      stack.push({ array: false });
      pendingKey = undefined;
    } else if (ch === "]" || ch === "}") stack.pop();
    else if (ch === ",") pendingKey = undefined;
  }
  return lines;
}

export interface CodeSystemFile {
  url?: string;
  version?: string;
  records: ParsedLine[];
}

/** A refusal of the whole file (not one line): said in words, nothing imported. */
export class CodeFileError extends Error {
  override name = "CodeFileError";
}

/**
 * Reads a FHIR CodeSystem: `url` and `version` of the resource, and its concepts (nested ones
 * too) with `display` as English and an `ar` designation as Arabic.
 */
export function parseCodeSystem(text: string): CodeSystemFile {
  let resource: unknown;
  try {
    resource = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    const at = /position (\d+)/.exec((error as Error).message)?.[1];
    const line = at ? text.slice(0, Number(at)).split("\n").length : undefined;
    throw new CodeFileError(`The file is not valid JSON${line ? ` (line ${line})` : ""}.`);
  }
  const cs = resource as { resourceType?: unknown; url?: unknown; version?: unknown; concept?: unknown };
  if (typeof resource !== "object" || resource === null || cs.resourceType !== "CodeSystem") {
    throw new CodeFileError('The file is JSON but not a FHIR CodeSystem (its "resourceType" must be "CodeSystem").');
  }
  if (!Array.isArray(cs.concept) || cs.concept.length === 0) throw new CodeFileError('The CodeSystem has no "concept" list.');
  const lines = conceptLines(text);
  const records: ParsedLine[] = [];
  const seen = new Map<string, number>();
  let index = 0;
  const walk = (concepts: unknown[]) => {
    for (const c of concepts) {
      const line = lines[index++] ?? 0;
      const concept = c as { code?: unknown; display?: unknown; designation?: unknown; concept?: unknown };
      if (typeof c !== "object" || c === null) {
        records.push({ ok: false, line, message: "a concept must be an object" });
        continue;
      }
      const designations = Array.isArray(concept.designation) ? (concept.designation as { language?: unknown; value?: unknown }[]) : [];
      const ar = designations.find((d) => typeof d?.language === "string" && /^ar\b/i.test(d.language) && typeof d.value === "string")?.value as string | undefined;
      if (typeof concept.code !== "string") records.push({ ok: false, line, message: 'the concept has no "code"' });
      else {
        const parsed = record(line, concept.code, typeof concept.display === "string" ? concept.display : "", ar ?? "");
        const first = parsed.ok ? seen.get(parsed.code) : undefined;
        if (parsed.ok && first !== undefined) records.push({ ok: false, line, message: `the code ${parsed.code} was already given on line ${first}` });
        else {
          if (parsed.ok) seen.set(parsed.code, line);
          records.push(parsed);
        }
      }
      if (Array.isArray(concept.concept)) walk(concept.concept);
    }
  };
  walk(cs.concept);
  return {
    ...(typeof cs.url === "string" ? { url: cs.url } : {}),
    ...(typeof cs.version === "string" && cs.version.trim() ? { version: cs.version.trim().slice(0, 64) } : {}),
    records,
  };
}
