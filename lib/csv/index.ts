/**
 * lib/csv: the one writer of every CSV the portal hands out (dashboard tables, the claims work
 * queue; docs/decisions/094). RFC 4180 (CRLF, quotes doubled) with a BOM so spreadsheet programs
 * read UTF-8 (Arabic).
 *
 * Formula injection: a spreadsheet runs a cell that begins with `=`, `+`, `-` or `@` as a formula
 * (`-2+3+cmd|' /C calc'!A0`), and some also after a leading tab or carriage return. Names come
 * from people and payers (insurers, users, reasons), so such a cell is written as text, with a
 * leading apostrophe — except a plain number (`-12.50`, `3`, `1e3` is not one), which stays a
 * number a spreadsheet can add.
 */

/** A plain decimal number as the exports write money and counts: optional minus, digits, optional fraction. */
const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/;
/** What a spreadsheet may read as the start of a formula. */
const FORMULA_START = /^[=+\-@\t\r\n]/;

/** One cell, neutralised and quoted as needed. */
export function csvCell(raw: string | number | null | undefined): string {
  const text = raw === null || raw === undefined ? "" : String(raw);
  const value = FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A whole document: header row first, every row through csvCell. */
export function csvDocument(rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return "\uFEFF" + rows.map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}
