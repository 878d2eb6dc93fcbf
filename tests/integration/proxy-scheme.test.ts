import { afterAll, beforeAll, expect, it } from "vitest";
import { resetEnvForTests } from "~/server/env.server";
import { describeEachDatabase } from "../helpers/databases";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Behind a trusted proxy with no site address configured, the scheme the proxy reports decides the
 * absolute links of a page: the page cache keeps http and https renders apart, and every cookie sent
 * over https is Secure.
 */
const saved = { ...process.env };
beforeAll(() => {
  process.env.TRUST_PROXY = "1";
  delete process.env.PUBLIC_URL;
  process.env.LOG_LEVEL = "silent";
  resetEnvForTests();
});
afterAll(() => {
  process.env = saved;
  resetEnvForTests();
});

describeEachDatabase("the scheme behind a proxy", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ hitPathFirst: true });
  });
  afterAll(() => server.close());

  const canonical = async (proto: string) => {
    const response = await server.fetch("/about", { headers: { "x-forwarded-proto": proto } });
    expect(response.status).toBe(200);
    return { href: /<link rel="canonical" href="([^"]+)"/.exec(await response.text())?.[1] };
  };

  it("keeps an https page and an http page apart in the page cache", async () => {
    const https = await canonical("https");
    expect(https.href).toMatch(/^https:\/\//);
    const http = await canonical("http");
    expect(http.href).toMatch(/^http:\/\//);
    expect((await canonical("https")).href).toMatch(/^https:\/\//);
    expect((await canonical("http")).href).toMatch(/^http:\/\//);
  });

  it("marks every cookie Secure on https, and only there", async () => {
    const logout = (proto: string) =>
      server.fetch("/logout", { method: "POST", headers: { origin: server.url, "x-forwarded-proto": proto }, body: new URLSearchParams() });
    const overHttps = (await logout("https")).headers.getSetCookie();
    expect(overHttps.length).toBeGreaterThan(0);
    for (const cookie of overHttps) expect(cookie).toMatch(/;\s*Secure/i);
    for (const cookie of (await logout("http")).headers.getSetCookie()) expect(cookie).not.toMatch(/;\s*Secure/i);
  });
});
