import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env.server";

describe("env", () => {
  it("has working defaults", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.HOST).toBe("0.0.0.0");
    expect(env.SEED_DEMO_CONTENT).toBe(true);
    expect(env.publicUrl).toBe("http://localhost:3000");
    expect(env.dataDir.endsWith("/data")).toBe(true);
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("names the malformed variable", () => {
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(EnvError);
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => parseEnv({ INITIAL_ADMIN_EMAIL: "nope" })).toThrow(/INITIAL_ADMIN_EMAIL/);
    expect(() => parseEnv({ SEED_DEMO_CONTENT: "maybe" })).toThrow(/SEED_DEMO_CONTENT/);
    expect(() => parseEnv({ TURNSTILE_SITE_KEY: "abc" })).toThrow(/TURNSTILE_SECRET_KEY/);
  });

  it("reads booleans and trims the public URL", () => {
    const env = parseEnv({ SEED_DEMO_CONTENT: "false", PUBLIC_URL: "https://example.com/", PORT: "8080" });
    expect(env.SEED_DEMO_CONTENT).toBe(false);
    expect(env.publicUrl).toBe("https://example.com");
  });

  it("reads TRUST_PROXY as off, a number of proxies or their addresses; true means one, with a warning", () => {
    expect(parseEnv({}).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: "false" }).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: "0" }).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
    expect(parseEnv({ TRUST_PROXY: "10.0.0.1, 172.16.0.0/12,::1" }).TRUST_PROXY).toEqual(["10.0.0.1", "172.16.0.0/12", "::1"]);
    expect(parseEnv({ TRUST_PROXY: "2" }).warnings).toEqual([]);
    const legacy = parseEnv({ TRUST_PROXY: "true" });
    expect(legacy.TRUST_PROXY).toBe(1);
    expect(legacy.warnings).toEqual([expect.stringMatching(/TRUST_PROXY=true is read as one proxy/)]);
    for (const bad of ["maybe", "10.0.0.1/40", "-1", "11", "example.com"])
      expect(() => parseEnv({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
  });

  it("does not warn about PUBLIC_URL itself: start-up and doctor report a missing site address once the settings are read", () => {
    expect(parseEnv({ NODE_ENV: "production" }).warnings).toEqual([]);
    expect(parseEnv({ NODE_ENV: "production" }).publicUrl).toBe("http://localhost:3000");
    expect(parseEnv({ NODE_ENV: "production", PUBLIC_URL: "https://example.com/" }).publicUrl).toBe("https://example.com");
  });
});
