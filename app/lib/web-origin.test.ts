import { describe, expect, it } from "vitest";
import { webOriginOf } from "./web-origin";

describe("webOriginOf", () => {
  it("gives the origin of http(s) addresses with a plain host", () => {
    expect(webOriginOf("https://calendly.com/jo/30min")).toBe("https://calendly.com");
    expect(webOriginOf("http://LOCALHOST:8080/x")).toBe("http://localhost:8080");
    expect(webOriginOf("https://bücher.example/")).toBe("https://xn--bcher-kva.example");
    expect(webOriginOf("https://[::1]:3000/")).toBe("https://[::1]:3000");
  });

  it("refuses hosts that would break or widen a header", () => {
    for (const bad of [
      "https://cal;x.example/",
      "https://a,b.example",
      "https://a!b.example",
      "https://a$b.example",
      "javascript:alert(1)",
      "/path",
      "https://",
    ]) {
      expect(webOriginOf(bad), bad).toBeUndefined();
    }
  });
});
