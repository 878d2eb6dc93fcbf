import { afterAll, beforeAll, expect, it } from "vitest";
import { resetEnvForTests } from "~/server/env.server";
import { describeEachDatabase } from "../helpers/databases";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Behind a trusted proxy with no site address configured, the scheme the proxy reports never reaches
 * a page's absolute links (they start with the server's own address, like every link), so no render
 * for one scheme can answer the other; every cookie sent over https is Secure.
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

  it("links to the server's own address whatever scheme the proxy reports, through the page cache too", async () => {
    for (const proto of ["https", "http", "https", "http"])
      expect((await canonical(proto)).href).toMatch(/^http:\/\/localhost:\d+\/about$/);
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
