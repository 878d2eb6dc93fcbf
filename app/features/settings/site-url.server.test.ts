import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resetEnvForTests } from "~/server/env.server";

const settings = vi.hoisted(() => ({ siteUrl: "" }));
vi.mock("./settings.server", () => ({ getSiteSettings: () => Promise.resolve(settings) }));

const { emailSiteUrl, publicSiteUrl } = await import("./site-url.server");

const request = (url: string, host?: string) => new Request(url, host ? { headers: { host } } : undefined);

describe("the site's public address", () => {
  const saved = process.env.PUBLIC_URL;
  beforeEach(() => {
    delete process.env.PUBLIC_URL;
    settings.siteUrl = "";
    resetEnvForTests();
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.PUBLIC_URL;
    else process.env.PUBLIC_URL = saved;
    resetEnvForTests();
  });

  it("is PUBLIC_URL when set, whatever the settings or the request say", async () => {
    process.env.PUBLIC_URL = "https://owner.example/";
    resetEnvForTests();
    settings.siteUrl = "https://other.example";
    expect(await publicSiteUrl(request("http://evil.example/rss.xml"))).toBe("https://owner.example");
    expect(emailSiteUrl(settings)).toBe("https://owner.example");
  });

  it("is the Site address setting without PUBLIC_URL", async () => {
    settings.siteUrl = "https://blog.example/";
    expect(await publicSiteUrl(request("http://localhost:3000/rss.xml"))).toBe("https://blog.example");
    expect(emailSiteUrl(settings)).toBe("https://blog.example");
  });

  it("is the address the visitor used when neither is set — never localhost for a named site", async () => {
    expect(await publicSiteUrl(request("https://portfolio.example:8443/7fs/Faith"))).toBe("https://portfolio.example:8443");
  });

  it("never puts a request's address in an email (a forged Host would carry reset links away)", () => {
    expect(emailSiteUrl(settings)).toMatch(/^http:\/\/localhost:\d+$/);
  });
});
