import { afterEach, describe, expect, it } from "vitest";
import { resetEnvForTests } from "~/server/env.server";
import { clearSessionCookie, sessionCookie } from "./session.server";

const saved = { ...process.env };

function withEnv(vars: Record<string, string | undefined>) {
  process.env = { ...saved, ...vars };
  resetEnvForTests();
}

const expires = new Date("2030-01-01T00:00:00Z");
const attributes = (cookie: string) => cookie.split("; ").slice(1);

describe("session cookie attributes", () => {
  afterEach(() => {
    process.env = { ...saved };
    resetEnvForTests();
  });

  it("is httpOnly and SameSite=Lax, not Secure on plain http", () => {
    withEnv({ PUBLIC_URL: "http://localhost:3000", TRUST_PROXY: "false" });
    const cookie = sessionCookie("token", expires, new Request("http://localhost:3000/auth"));
    expect(attributes(cookie)).toEqual(expect.arrayContaining(["HttpOnly", "SameSite=Lax", "Path=/"]));
    expect(attributes(cookie)).not.toContain("Secure");
  });

  it("is Secure when PUBLIC_URL is https", () => {
    withEnv({ PUBLIC_URL: "https://example.com", TRUST_PROXY: "false" });
    expect(attributes(sessionCookie("token", expires, new Request("http://127.0.0.1/auth")))).toContain("Secure");
    expect(attributes(clearSessionCookie())).toContain("Secure");
  });

  it("is Secure behind a trusted https proxy (X-Forwarded-Proto), and only when the proxy is trusted", () => {
    const viaProxy = new Request("http://127.0.0.1/auth", { headers: { "x-forwarded-proto": "https" } });
    withEnv({ PUBLIC_URL: "http://localhost:3000", TRUST_PROXY: "true" });
    expect(attributes(sessionCookie("token", expires, viaProxy))).toContain("Secure");
    expect(attributes(clearSessionCookie(viaProxy))).toContain("Secure");
    const plainProxy = new Request("http://127.0.0.1/auth", { headers: { "x-forwarded-proto": "http" } });
    expect(attributes(sessionCookie("token", expires, plainProxy))).not.toContain("Secure");

    // A client cannot make the cookie Secure-only (and so break its own session) without a trusted proxy.
    withEnv({ PUBLIC_URL: "http://localhost:3000", TRUST_PROXY: "false" });
    expect(attributes(sessionCookie("token", expires, viaProxy))).not.toContain("Secure");
  });
});
