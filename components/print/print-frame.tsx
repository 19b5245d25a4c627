"use client";

import { useEffect, useState } from "react";

/** A text as a CSS string: quotes and backslashes escaped, no way out of the string or the style element. */
const cssString = (text: string) => `"${text.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\n\r]/g, " ").replace(/</g, "\\3c ")}"`;

/** "Page {page} of {pages}" → `"Page " counter(page) " of " counter(pages)`: the words around Chromium's page counters. */
function pageContent(template: string): string {
  return template
    .split(/(\{page\}|\{pages\})/)
    .filter((part) => part !== "")
    .map((part) => (part === "{page}" ? "counter(page)" : part === "{pages}" ? "counter(pages)" : cssString(part)))
    .join(" ");
}

/**
 * What a printed page of the portal carries (decision 123): the clinic's name, what the paper
 * is, when it was printed (in the clinic's time zone, set again at the moment of printing) and
 * "page X of Y" on every sheet. The page numbers are CSS page-margin boxes with Chromium's
 * `counter(page)` / `counter(pages)` (supported since Chromium 131), so the browser's own Print
 * dialog numbers the pages, not only a PDF made by a test. On screen nothing of it shows; the
 * shell's header and menu are `no-print`.
 */
export function PrintFrame({ clinicName, title, subject, printedTemplate, pageTemplate, locale, timeZone }: { clinicName: string; title: string; subject?: string; printedTemplate: string; pageTemplate: string; locale: string; timeZone: string }) {
  const stamp = () => new Intl.DateTimeFormat(locale === "ar" ? "ar-SA-u-nu-latn-ca-gregory" : "en-GB", { dateStyle: "medium", timeStyle: "short", timeZone }).format(new Date());
  const [printedAt, setPrintedAt] = useState<string>();
  useEffect(() => {
    const update = () => setPrintedAt(stamp());
    update();
    window.addEventListener("beforeprint", update);
    return () => window.removeEventListener("beforeprint", update);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [locale, timeZone]);
  const printed = printedTemplate.replace("{date}", printedAt ?? "");
  const css = `@page {
  size: A4;
  margin: 18mm 14mm 18mm 14mm;
  @top-center { content: ${cssString(`${clinicName} · ${title}`)}; font: 9pt sans-serif; color: #334155; }
  @bottom-left { content: ${cssString(locale === "ar" ? "" : printed)}; font: 8pt sans-serif; color: #475569; }
  @bottom-right { content: ${cssString(locale === "ar" ? printed : "")}; font: 8pt sans-serif; color: #475569; }
  @bottom-center { content: ${pageContent(pageTemplate)}; font: 9pt sans-serif; color: #334155; }
}`;
  return (
    <>
      <style data-testid="print-page-style">{css}</style>
      <header className="mb-4 hidden border-b border-slate-300 pb-2 print:block" data-testid="print-header">
        <p className="text-lg font-semibold text-slate-900">{clinicName}</p>
        <p className="text-sm text-slate-700">
          {title}
          {subject ? ` · ${subject}` : ""}
        </p>
        <p className="text-xs text-slate-600" data-testid="print-date">
          {printed}
        </p>
      </header>
    </>
  );
}
