import { describe, expect, it } from "vitest";
import { sniffContentType } from "./sniff";
import { jpegShaped, tinyPdf, tinyPng } from "./testing/fixtures";

describe("sniffContentType (bytes, never the name)", () => {
  it("recognises PDF, PNG and JPEG by their magic numbers and end markers", () => {
    expect(sniffContentType(tinyPdf())).toEqual({ ok: true, contentType: "application/pdf" });
    expect(sniffContentType(tinyPng())).toEqual({ ok: true, contentType: "image/png" });
    expect(sniffContentType(jpegShaped())).toEqual({ ok: true, contentType: "image/jpeg" });
  });

  it("accepts a PDF with trailing whitespace after %%EOF and a JPEG with padding after EOI", () => {
    expect(sniffContentType(Buffer.concat([tinyPdf(), Buffer.from("\r\n\n")]))).toMatchObject({ ok: true });
    expect(sniffContentType(Buffer.concat([jpegShaped(), Buffer.alloc(8)]))).toMatchObject({ ok: true, contentType: "image/jpeg" });
  });

  it("refuses a text file, whatever it is called", () => {
    expect(sniffContentType(Buffer.from("Dear insurer, please approve.\n"))).toEqual({ ok: false, reason: "unsupported" });
    expect(sniffContentType(Buffer.from("<html><script>alert(1)</script></html>"))).toEqual({ ok: false, reason: "unsupported" });
    // "PDF" somewhere else than at the start is not a PDF.
    expect(sniffContentType(Buffer.from(" %PDF-1.4\n%%EOF"))).toEqual({ ok: false, reason: "unsupported" });
  });

  it("refuses truncated files (header right, end missing)", () => {
    const pdf = tinyPdf();
    const png = tinyPng();
    const jpg = jpegShaped();
    expect(sniffContentType(pdf.subarray(0, pdf.length - 40))).toEqual({ ok: false, reason: "truncated" });
    expect(sniffContentType(png.subarray(0, png.length - 5))).toEqual({ ok: false, reason: "truncated" });
    expect(sniffContentType(png.subarray(0, 12))).toEqual({ ok: false, reason: "truncated" });
    expect(sniffContentType(jpg.subarray(0, jpg.length - 2))).toEqual({ ok: false, reason: "truncated" });
    expect(sniffContentType(Buffer.from([0xff, 0xd8, 0xff]))).toEqual({ ok: false, reason: "truncated" });
  });

  it("refuses empty files and near-misses of the signatures", () => {
    expect(sniffContentType(new Uint8Array(0))).toEqual({ ok: false, reason: "empty" });
    expect(sniffContentType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a]))).toEqual({ ok: false, reason: "unsupported" });
    expect(sniffContentType(Buffer.from("%PDF"))).toEqual({ ok: false, reason: "unsupported" });
    expect(sniffContentType(Buffer.from("GIF89a......"))).toEqual({ ok: false, reason: "unsupported" });
  });
});
