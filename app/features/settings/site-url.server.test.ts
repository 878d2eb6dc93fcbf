import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resetEnvForTests } from "~/server/env.server";

const settings = vi.hoisted(() => ({ siteUrl: "" }));
vi.mock("./settings.server", () => ({ getSiteSettings: () => Promise.resolve(settings) }));

const { emailSiteUrl, isSiteHost, missingSiteAddressNotice, publicSiteUrl } = await import("./site-url.server");

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
    expect(await publicSiteUrl()).toBe("https://owner.example");
    expect(emailSiteUrl(settings)).toBe("https://owner.example");
  });

  it("is the Site address setting without PUBLIC_URL", async () => {
    settings.siteUrl = "https://blog.example/";
    expect(await publicSiteUrl()).toBe("https://blog.example");
    expect(emailSiteUrl(settings)).toBe("https://blog.example");
  });

  it("is the server's own address when neither is set — never a request's host", async () => {
    expect(await publicSiteUrl()).toMatch(/^http:\/\/localhost:\d+$/);
    expect(missingSiteAddressNotice(settings)).toMatch(
      /^No site address is set: links in pages, feeds and emails use http:\/\/localhost:\d+/,
    );
  });

  it("answers only for the site address's host name and loopback names", () => {
    settings.siteUrl = "https://Blog.example/";
    for (const host of ["blog.example", "BLOG.example:8443", "blog.example.", "localhost:3000", "127.0.0.1", "[::1]:8080"])
      expect(isSiteHost(host, settings), host).toBe(true);
    for (const host of ["evil.example", "blog.example.evil.example", "evilblog.example", "localhost.evil.example", "[::2]", ""])
      expect(isSiteHost(host, settings), host).toBe(false);
    expect(missingSiteAddressNotice(settings)).toBeUndefined();
    settings.siteUrl = "";
    expect(isSiteHost("blog.example", settings)).toBe(false);
    expect(isSiteHost("localhost:4000", settings)).toBe(true);
  });

  it("never puts a request's address in an email (a forged Host would carry reset links away)", () => {
    expect(emailSiteUrl(settings)).toMatch(/^http:\/\/localhost:\d+$/);
  });
});
