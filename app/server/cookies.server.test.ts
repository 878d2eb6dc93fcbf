import { describe, expect, it } from "vitest";
import { readCookie } from "./cookies.server";

describe("readCookie", () => {
  const request = (cookie?: string) => new Request("http://localhost/", cookie === undefined ? {} : { headers: { cookie } });
  it("finds a cookie by name among others and decodes it", () => {
    expect(readCookie(request("a=1; sid=abc%20def; sidebar_state=false"), "sid")).toBe("abc def");
    expect(readCookie(request("a=1; sidebar_state=false"), "sidebar_state")).toBe("false");
  });
  it("is null for a missing cookie or header, and a malformed value is returned as sent, never an error", () => {
    expect(readCookie(request("a=1"), "sid")).toBeNull();
    expect(readCookie(request(), "sid")).toBeNull();
    expect(readCookie(request("sid=%ZZ%E0%A4%A"), "sid")).toBe("%ZZ%E0%A4%A");
  });
});
