import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startContentVersion, stopContentVersion } from "~/server/content-version.server";
import { resetEnvForTests } from "~/server/env.server";
import { describeEachDatabase } from "../helpers/databases";
import { signedInAs } from "../helpers/factories";
import { canonicalOf, rawRequest } from "../helpers/raw-http";
import { saveSiteAddress, startTestServer, type TestServer } from "../helpers/test-server";

/**
 * With no site address configured (docs/decisions/0073-configured-hosts.md) the site answers at
 * localhost only and links to http://localhost:PORT; behind a trusted proxy a forwarded host other
 * than that is answered 421 and the forwarded scheme never reaches a link. Once the Site address is
 * saved, its host is answered and linked. (Its own file: the app's trust-proxy setting and page cache
 * live for the whole module, so the PUBLIC_URL suite in configured-hosts.test.ts cannot share them.)
 */
const saved = { ...process.env };
afterAll(() => {
  process.env = saved;
  resetEnvForTests();
});

describe("with nothing configured, behind a trusted proxy", () => {
  beforeAll(() => {
    delete process.env.PUBLIC_URL;
    process.env.TRUST_PROXY = "1";
    process.env.LOG_LEVEL = "silent";
    resetEnvForTests();
  });

  describeEachDatabase("configured hosts", (ctx) => {
    let server: TestServer;
    beforeAll(async () => {
      await startContentVersion();
      server = await startTestServer({ hitPathFirst: true });
    });
    afterAll(async () => {
      await server.close();
      await stopContentVersion();
    });

    it("answers only at localhost, links to http://localhost:PORT whatever X-Forwarded-Proto says, and refuses a forwarded host", async () => {
      for (const proto of ["https", "http", "https"]) {
        const page = await rawRequest(server.url, "/about", {
          host: "127.0.0.1",
          "x-forwarded-host": "localhost:8080",
          "x-forwarded-proto": proto,
        });
        expect(page.status).toBe(200);
        expect(canonicalOf(page.body)).toMatch(/^http:\/\/localhost:\d+\/about$/);
      }
      const forged = await rawRequest(server.url, "/about", { host: "127.0.0.1", "x-forwarded-host": "evil.example, localhost" });
      expect(forged.status).toBe(421);
      expect(forged.body).toMatch(/Its address is http:\/\/localhost:\d+\./);
    });

    it("answers the Site address's host once it is saved, and links there", async () => {
      const admin = await signedInAs(ctx.db, "admin");
      const save = await saveSiteAddress(server, ctx.db, admin.cookie, "https://blog.example/");
      expect(save.status).toBeLessThan(400);
      const page = await rawRequest(server.url, "/about", {
        host: "127.0.0.1",
        "x-forwarded-host": "blog.example",
        "x-forwarded-proto": "http",
      });
      expect(page.status).toBe(200);
      expect(canonicalOf(page.body)).toBe("https://blog.example/about");
      const other = await rawRequest(server.url, "/about", { host: "127.0.0.1", "x-forwarded-host": "evil.example" });
      expect(other.status).toBe(421);
      expect(other.body).toContain("Its address is https://blog.example.");
    });
  });
});
