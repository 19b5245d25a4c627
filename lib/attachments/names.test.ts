import { describe, expect, it } from "vitest";
import { contentDisposition, sanitizeFileName } from "./names";

describe("sanitizeFileName", () => {
  it("keeps ordinary names, Arabic included", () => {
    expect(sanitizeFileName("MRI report.pdf", "application/pdf")).toBe("MRI report.pdf");
    expect(sanitizeFileName("تقرير الأشعة.pdf", "application/pdf")).toBe("تقرير الأشعة.pdf");
    expect(sanitizeFileName("scan.JPEG", "image/jpeg")).toBe("scan.jpeg");
  });

  it("drops folders, control and bidi-override characters, reserved characters and leading dots", () => {
    expect(sanitizeFileName("C:\\Users\\me\\Desktop\\knee.png", "image/png")).toBe("knee.png");
    expect(sanitizeFileName("../../etc/passwd", "application/pdf")).toBe("passwd.pdf");
    expect(sanitizeFileName("report\u202Efdp.exe", "application/pdf")).toBe("reportfdp.exe.pdf");
    expect(sanitizeFileName("a<b>c:d\"e|f?g*.pdf", "application/pdf")).toBe("a_b_c_d_e_f_g_.pdf");
    expect(sanitizeFileName("line\r\nbreak\t.pdf", "application/pdf")).toBe("linebreak.pdf");
    expect(sanitizeFileName("...hidden.png", "image/png")).toBe("hidden.png");
    expect(sanitizeFileName("  lots   of   space  .pdf", "application/pdf")).toBe("lots of space.pdf");
  });

  it("makes the extension match the type sniffed from the bytes", () => {
    expect(sanitizeFileName("photo.pdf", "image/png")).toBe("photo.pdf.png");
    expect(sanitizeFileName("report", "application/pdf")).toBe("report.pdf");
    expect(sanitizeFileName("", "image/jpeg")).toBe("attachment.jpg");
    expect(sanitizeFileName(". .", "application/pdf")).toBe("attachment.pdf");
  });

  it("limits the length to 120 characters, keeping the extension", () => {
    const name = sanitizeFileName(`${"x".repeat(300)}.pdf`, "application/pdf");
    expect(name).toHaveLength(120);
    expect(name.endsWith(".pdf")).toBe(true);
  });
});

describe("contentDisposition", () => {
  it("is an attachment with an ASCII fallback and an RFC 5987 UTF-8 name", () => {
    expect(contentDisposition("MRI report.pdf")).toBe(`attachment; filename="MRI report.pdf"; filename*=UTF-8''MRI%20report.pdf`);
    const ar = contentDisposition("تقرير.pdf");
    expect(ar).toMatch(/^attachment; filename="_+\.pdf"; filename\*=UTF-8''%D8%AA/);
    expect(contentDisposition(`a"b\\c.pdf`)).toContain(`filename="a_b_c.pdf"`);
  });
});
