/**
 * A small RFC 4180 reader: comma or semicolon separated (the header decides), "quoted" fields with
 * doubled quotes and line breaks inside, CRLF or LF. Every record keeps the line it starts on, so a
 * bad row is reported by the line a person sees in a spreadsheet or editor.
 */
export interface CsvRecord {
  line: number;
  fields: string[];
}

export function parseCsv(text: string): CsvRecord[] {
  const input = text.replace(/^\uFEFF/, "");
  const firstLine = input.slice(0, input.search(/\r?\n|$/));
  const separator = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ";" : ",";
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let startLine = 1;
  let any = false;
  const endRecord = () => {
    fields.push(field);
    if (fields.some((f) => f.trim() !== "")) records.push({ line: startLine, fields });
    fields = [];
    field = "";
    any = false;
  };
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (quoted) {
      if (c === '"') {
        if (input[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === "\n") line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && field.trim() === "") {
      field = "";
      quoted = true;
      any = true;
    } else if (c === separator) {
      fields.push(field);
      field = "";
      any = true;
    } else if (c === "\r" && input[i + 1] === "\n") {
      continue;
    } else if (c === "\n" || c === "\r") {
      endRecord();
      line++;
      startLine = line;
    } else {
      if (!any) startLine = line;
      any = true;
      field += c;
    }
  }
  if (any || field !== "" || fields.length > 0) endRecord();
  return records;
}
