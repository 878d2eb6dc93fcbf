import { describe, expect, it } from "vitest";
import { resumePdfAnswer } from "./demo-resume.server";

describe("/resume.pdf", () => {
  it("serves the shipped PDF while the settings still point at it", async () => {
    const response = resumePdfAnswer({ resumeUrl: "/resume.pdf" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    const body = await response.text();
    expect(body.startsWith("%PDF-1.4")).toBe(true);
    expect(body.trimEnd().endsWith("%%EOF")).toBe(true);
  });

  it("redirects to the owner's resume once one is set", () => {
    const response = resumePdfAnswer({ resumeUrl: "/uploads/documents/maya-rivera.pdf" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/uploads/documents/maya-rivera.pdf");
  });

  it("is not found when the site has no resume", () => {
    expect(resumePdfAnswer({ resumeUrl: "" }).status).toBe(404);
  });
});
