import { describe, expect, it } from "vitest";
import { isPdf, resumeDisposition } from "./documents.server";

describe("resume documents", () => {
  it("takes a file as a PDF by its first bytes only", () => {
    expect(isPdf(Buffer.from("%PDF-1.7\n%âãÏÓ\n1 0 obj"))).toBe(true);
    expect(isPdf(Buffer.from("%PDF-"))).toBe(false);
    expect(isPdf(Buffer.from("<html>%PDF-1.7"))).toBe(false);
    expect(isPdf(Buffer.from("%pdf-1.7 lower case"))).toBe(false);
    expect(isPdf(Buffer.from("\u00ef\u00bb\u00bf%PDF-1.7"))).toBe(false);
    expect(isPdf(Buffer.alloc(0))).toBe(false);
  });

  it("names the download after the owner, with an ASCII fallback and the exact name in filename*", () => {
    expect(resumeDisposition("Jo Doe")).toBe(`attachment; filename="Jo Doe Resume.pdf"; filename*=UTF-8''Jo%20Doe%20Resume.pdf`);
    expect(resumeDisposition('Zoë "Z" Brontë')).toBe(
      `attachment; filename="Zoe Z Bronte Resume.pdf"; filename*=UTF-8''Zo%C3%AB%20%22Z%22%20Bront%C3%AB%20Resume.pdf`,
    );
    expect(resumeDisposition("  ")).toContain('filename="Resume Resume.pdf"');
    expect(resumeDisposition("李雷")).toContain('filename="Resume.pdf"');
  });
});
