import { describe, expect, it } from "vitest";
import { statusPageTitle, statusTitle } from "./http-status";

describe("statusTitle", () => {
  it("names the statuses the site answers with", () => {
    expect(statusPageTitle(403)).toBe("403 Access denied");
    expect(statusPageTitle(404)).toBe("404 Page not found");
    expect(statusPageTitle(429)).toBe("429 Too many requests");
  });

  it("never calls a refusal a server error", () => {
    expect(statusTitle(418)).toBe("Request refused");
    expect(statusTitle(599)).toBe("Something went wrong");
  });
});
