import { describe, expect, it } from "vitest";
import { campaignOf, classifyClient, classifyReferrer, storedPath, truncateAddress } from "./classify";

describe("classifyClient", () => {
  it("names common browsers, systems and devices", () => {
    const chromeMac =
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    expect(classifyClient(chromeMac)).toEqual({ device: "desktop", browser: "Chrome", os: "macOS" });
    const iphone =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
    expect(classifyClient(iphone)).toEqual({ device: "mobile", browser: "Safari", os: "iOS" });
    const edge = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 Edg/131.0";
    expect(classifyClient(edge)).toEqual({ device: "desktop", browser: "Edge", os: "Windows" });
    const tablet = "Mozilla/5.0 (Linux; Android 14; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
    expect(classifyClient(tablet).device).toBe("tablet");
    expect(classifyClient("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0")).toEqual({
      device: "desktop",
      browser: "Firefox",
      os: "Linux",
    });
  });
});

describe("classifyReferrer", () => {
  it("keeps the host, and the path only for search engines", () => {
    expect(classifyReferrer("https://www.linkedin.com/feed/?x=1", "example.com", [])).toEqual({
      host: "linkedin.com",
      path: null,
      spam: false,
    });
    expect(classifyReferrer("https://www.google.com/", "example.com", [])).toEqual({ host: "google.com", path: "/", spam: false });
  });
  it("drops this site's own pages and non-http referrers", () => {
    expect(classifyReferrer("http://example.com/7fs/Faith", "example.com", []).host).toBeNull();
    expect(classifyReferrer("android-app://com.x", "example.com", []).host).toBeNull();
    expect(classifyReferrer("not a url", "example.com", []).host).toBeNull();
  });
  it("flags spam hosts and the owner's blocked hosts, subdomains included", () => {
    expect(classifyReferrer("https://x.semalt.com/", "example.com", []).spam).toBe(true);
    expect(classifyReferrer("https://news.spammy.test/", "example.com", ["spammy.test"]).spam).toBe(true);
    expect(classifyReferrer("https://notspammy.test/", "example.com", ["spammy.test"]).spam).toBe(false);
  });
});

describe("campaignOf", () => {
  it("reads utm parameters, lower-cased", () => {
    expect(campaignOf("?utm_source=LinkedIn&utm_medium=social&utm_campaign=Spring-Newsletter")).toEqual({
      source: "linkedin",
      medium: "social",
      campaign: "spring-newsletter",
    });
    expect(campaignOf("?page=2")).toEqual({ source: null, medium: null, campaign: null });
  });
});

describe("truncateAddress", () => {
  it("cuts IPv4 to /24 and IPv6 to /48", () => {
    expect(truncateAddress("203.0.113.77")).toBe("203.0.113.0/24");
    expect(truncateAddress("::ffff:203.0.113.77")).toBe("203.0.113.0/24");
    expect(truncateAddress("2001:db8:abcd:12::1")).toBe("2001:db8:abcd::/48");
    expect(truncateAddress("2001:db8::1")).toBe("2001:db8:0::/48");
    expect(truncateAddress("::1")).toBe("0:0:0::/48");
    expect(truncateAddress("unknown")).toBeNull();
  });
});

describe("storedPath", () => {
  it("drops the query and trailing slashes", () => {
    expect(storedPath("/7fs/Faith/?utm_source=x")).toBe("/7fs/Faith");
    expect(storedPath("/")).toBe("/");
  });
});
